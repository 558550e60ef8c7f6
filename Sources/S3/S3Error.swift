import Ground
import HTTP

/// A failure of the S3 client. `code` is stable (tests and the CLI compare against it); the
/// description never holds a credential: text from the server is scrubbed (`S3Credentials.redact`)
/// before it is kept.
public struct S3Error: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable {
        /// Bad configuration: endpoint URL, bucket name, region, part size.
        case configuration
        /// AWS_ACCESS_KEY_ID or AWS_SECRET_ACCESS_KEY is not set.
        case credentialsMissing
        /// The server refused the credentials (InvalidAccessKeyId, SignatureDoesNotMatch,
        /// ExpiredToken, InvalidToken). The CLI maps this to exit 3.
        case credentialsRejected
        /// The credentials are valid but not allowed this (AccessDenied), e.g. deleting an
        /// object under Object Lock retention.
        case accessDenied
        /// The bucket does not exist (NoSuchBucket).
        case bucketNotFound
        /// The object (or multipart upload) does not exist.
        case notFound
        /// The server refused the body: its MD5 or SHA-256 is not the one we declared (BadDigest,
        /// XAmzContentSHA256Mismatch). Nothing was stored.
        case integrityRejected
        /// Bytes do not hash to what they must (a GET's bytes against the blob ID, a source
        /// against the ID it was put under, a part's ETag against its MD5).
        case integrityMismatch
        /// Retries ran out on 5xx answers, resets or timeouts (or a non-retryable transport fault).
        case unavailable
        /// The answer broke the protocol or our limits (XML, lengths, headers, ranges).
        case malformedResponse
        /// Any other refusal (4xx) with the server's code.
        case rejected
        /// The source of a put failed or held another number of bytes than declared.
        case input
        /// Object Lock was asked for where the bucket does not have it.
        case objectLockUnsupported
        /// A ranged read asked for bytes that do not lie within the blob.
        case rangeInvalid

        /// The stable code (the status-code table).
        public var rawValue: String {
            switch self {
            case .configuration: StatusCode.s3Configuration
            case .credentialsMissing: StatusCode.s3CredentialsMissing
            case .credentialsRejected: StatusCode.s3CredentialsRejected
            case .accessDenied: StatusCode.s3AccessDenied
            case .bucketNotFound: StatusCode.s3BucketNotFound
            case .notFound: StatusCode.s3NotFound
            case .integrityRejected: StatusCode.s3IntegrityRejected
            case .integrityMismatch: StatusCode.s3IntegrityMismatch
            case .unavailable: StatusCode.s3Unavailable
            case .malformedResponse: StatusCode.s3ResponseMalformed
            case .rejected: StatusCode.s3Rejected
            case .input: StatusCode.s3Input
            case .objectLockUnsupported: StatusCode.s3ObjectLockUnsupported
            case .rangeInvalid: StatusCode.s3RangeInvalid
            }
        }
    }

    public let code: Code
    /// Detail for a person (already scrubbed of credentials).
    public let message: String
    /// The HTTP status of the answer behind this error, 0 when there was none.
    public let status: Int
    /// The server's own error code (`NoSuchKey`, `BadDigest`, …), empty when there was none.
    public let serverCode: String
    /// The transport failure behind this error, if any.
    public let transport: HTTPError?

    public init(_ code: Code, _ message: String, status: Int = 0, serverCode: String = "", transport: HTTPError? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.serverCode = serverCode
        self.transport = transport
    }

    public var description: String {
        var s = "\(code.rawValue): \(message)"
        if status != 0 { s += " (HTTP \(status)\(serverCode.isEmpty ? "" : " \(serverCode)"))" }
        return s
    }

    /// Strict decimal: digits only, no sign, fits in Int64.
    static func parseDecimal(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text)
    }
}
