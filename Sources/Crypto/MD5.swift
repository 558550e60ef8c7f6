import COpenSSL
import Foundation

/// MD5 through OpenSSL EVP, streaming. Not for security: only for the `Content-MD5` header
/// (RFC 1864) that S3 servers check against the body they receive. A final class owns the
/// `EVP_MD_CTX`; one hasher, one thread at a time.
public final class MD5: @unchecked Sendable {
    /// Output length in bytes.
    public static let outputLength = 16
    nonisolated(unsafe) private static let evp: OpaquePointer = EVP_MD_fetch(nil, "MD5", nil) ?? EVP_md5()
    private let context = EVPDigestContext(MD5.evp, name: "MD5")

    public init() {}

    public func update(_ buffer: UnsafeRawBufferPointer) { context.update(buffer) }

    public func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 16-byte digest; the hasher is reset and can be reused.
    public func finalize() -> [UInt8] { context.finalize() }

    /// One-shot MD5.
    public static func digest<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        let h = MD5()
        h.update(bytes)
        return h.finalize()
    }
}
