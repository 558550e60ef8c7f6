import Ground

/// A failed HTTP exchange: the request could not be sent or its response not read. An answer
/// with any status (404, 503, …) is not an `HTTPError`: it is an `HTTPResponse`, and the caller
/// decides. `code` is stable; callers and tests compare against it.
public struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a retry policy needs.
    public enum Kind: Sendable {
        /// No connection could be made (refused, unreachable, no such host).
        case connect
        /// The connection broke mid-exchange (reset, closed early, nothing received).
        case reset
        /// The connect timeout passed, or the transfer stalled longer than allowed.
        case timeout
        /// The server's answer is not HTTP, or its head breaks our limits.
        case malformedResponse
        /// The request body source delivered fewer bytes than its declared length.
        case shortBody
        /// The URL or an option was refused by libcurl (a bug or bad configuration).
        case request
        /// TLS failed (handshake, certificate).
        case tls
        /// Any other libcurl failure.
        case transport

        /// The stable code (the status-code table).
        public var code: String {
            switch self {
            case .connect: StatusCode.httpConnect
            case .reset: StatusCode.httpReset
            case .timeout: StatusCode.httpTimeout
            case .malformedResponse: StatusCode.httpResponseMalformed
            case .shortBody: StatusCode.httpBodyShort
            case .request: StatusCode.httpRequest
            case .tls: StatusCode.httpTls
            case .transport: StatusCode.httpTransport
            }
        }
    }

    public let kind: Kind
    /// The libcurl result code (`CURLcode`), 0 when the failure was found by this module.
    public let curlCode: Int32
    /// Detail for a person: libcurl's error buffer or our own words. Never holds request headers.
    public let message: String

    public init(_ kind: Kind, curlCode: Int32 = 0, _ message: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
    }

    public var code: String { kind.code }

    /// True when the same request may succeed if sent again (connect, reset, timeout).
    public var isTransient: Bool {
        switch kind {
        case .connect, .reset, .timeout: true
        default: false
        }
    }

    public var description: String {
        curlCode == 0 ? "\(code): \(message)" : "\(code): \(message) (curl \(curlCode))"
    }
}
