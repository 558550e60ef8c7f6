/// One HTTP request. Header values are sent as given; `Host`, `Content-Length` and (for large
/// uploads) `Expect: 100-continue` are added by libcurl unless set here.
public struct HTTPRequest: Sendable {
    public var method: String
    /// Absolute `http://` or `https://` URL, already percent-encoded.
    public var url: String
    /// Header fields in order; names as they should appear on the wire.
    public var headers: [(name: String, value: String)]
    /// Seconds to wait for the TCP (and TLS) connection.
    public var connectTimeout: Double
    /// Seconds without a single byte moving in either direction before the transfer is
    /// abandoned as stalled (`http.timeout`). A multi-GB transfer has no total deadline.
    public var stallTimeout: Int
    /// Sends `Expect: 100-continue` before a body so a server can refuse it unsent (a 412 on
    /// a put-if-absent costs no upload); false suppresses the header.
    public var expectContinue: Bool

    public init(method: String, url: String, headers: [(name: String, value: String)] = [],
                connectTimeout: Double = 10, stallTimeout: Int = 60, expectContinue: Bool = true) {
        self.method = method
        self.url = url
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.expectContinue = expectContinue
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }
}

/// Where a request body comes from. Bodies are streamed: libcurl pulls them piece by piece.
public enum HTTPBody {
    /// No body (GET, HEAD, DELETE).
    case none
    /// Bytes the caller keeps alive and unchanged until `send` returns (a part buffer).
    /// Rewindable, so libcurl may resend them on a fresh connection.
    case buffer(UnsafeRawBufferPointer)
    /// Exactly `length` bytes pulled from `read` (fills the buffer as far as it can, returns
    /// the count, 0 at the end). Not rewindable.
    case stream(length: Int64, read: (UnsafeMutableRawBufferPointer) throws -> Int)
    /// Exactly `length` bytes read at their offset (0-based within the body) by `read`, which
    /// fills the buffer as far as it can and returns the count (fewer only at the end). Rewindable
    /// like a buffer (libcurl may resend the body on a fresh connection), yet streamed: a
    /// multi-GB file goes out in constant memory, piece by piece as libcurl asks for it.
    case positioned(length: Int64, read: (Int64, UnsafeMutableRawBufferPointer) throws -> Int)

    /// The body's byte count, nil for none.
    public var length: Int64? {
        switch self {
        case .none: nil
        case .buffer(let b): Int64(b.count)
        case .stream(let length, _): length
        case .positioned(let length, _): length
        }
    }
}

/// The status line and header fields of an answer.
public struct HTTPResponse: Sendable {
    /// The final status code (1xx interim answers are skipped).
    public let status: Int
    /// Header fields of the final answer, names lowercased, in order.
    public let headers: [(name: String, value: String)]
    /// The body of an answer outside 200–299, kept up to `HTTPClient.errorBodyLimit` bytes (an
    /// S3 error document); empty for 2xx answers, whose body went to the sink.
    public let errorBody: [UInt8]
    /// Body bytes received (all of them, also those of an error body beyond the limit).
    public let bodyBytes: Int64

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    public var isSuccess: Bool { (200...299).contains(status) }
}
