/// A typed failure from the `Crypto` module, with a stable `code` that tests and reports compare.
public struct CryptoError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Stable machine-readable code (`"der.trailingBytes"`, `"pem.noCertificate"`, …).
    public let code: String
    /// Human-readable detail (may include the drained OpenSSL error queue).
    public let reason: String

    public init(_ code: String, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// A failure whose reason is the operation plus the thread's OpenSSL error queue.
    static func openssl(_ code: String, _ operation: String) -> CryptoError {
        CryptoError(code, OpenSSLError(operation).description)
    }

    public var description: String { "\(code): \(reason)" }
}
