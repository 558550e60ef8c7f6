import Crypto
import Foundation
import HTTP

/// One S3 call before signing: method, bucket, key, query and headers, and its body with the
/// body's own SHA-256 (signed as `x-amz-content-sha256`) and MD5 (`Content-MD5`).
struct S3Request {
    var operation: String
    var method: String
    var bucket: String
    var key: String?
    var query: [(String, String)] = []
    var headers: [(name: String, value: String)] = []
    var body: HTTPBody = .none
    /// Hex SHA-256 of the body (the empty body's when there is none).
    var payloadHash = SigV4.emptyPayloadHash
    var expectContinue = true

    init(_ operation: String, _ method: String, bucket: String, key: String? = nil, query: [(String, String)] = []) {
        self.operation = operation
        self.method = method
        self.bucket = bucket
        self.key = key
        self.query = query
    }

    /// Sets a body the caller keeps alive: its SHA-256 must be `sha256Hex`; `Content-MD5` is
    /// computed here unless given.
    mutating func setBody(_ bytes: UnsafeRawBufferPointer, sha256Hex: String, md5: [UInt8]? = nil) {
        setBody(.buffer(bytes), sha256Hex: sha256Hex, md5: md5 ?? MD5.digest(bytes))
    }

    /// Sets a body (a buffer or a source read at its offsets) whose SHA-256 is `sha256Hex` and
    /// MD5 `md5`: the server refuses the request when the bytes it receives hash otherwise.
    mutating func setBody(_ body: HTTPBody, sha256Hex: String, md5: [UInt8]) {
        self.body = body
        payloadHash = sha256Hex
        headers.append(("Content-MD5", Base64.encode(md5)))
    }
}

/// Standard base64 (RFC 4648 §4) with padding, for `Content-MD5`.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
