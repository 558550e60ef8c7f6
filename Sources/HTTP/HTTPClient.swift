import CCurl
import Ground

/// An HTTP/1.1 client over libcurl: streaming request bodies from a reader, response bodies to
/// a sink, so a multi-GB transfer runs in constant memory. Thread-safe: each `send` borrows an
/// idle easy handle (keeping its keep-alive connection) or makes one. `send` blocks the calling
/// thread; call it from a thread of your own, not from Swift's cooperative pool.
public final class HTTPClient: Sendable {
    /// Bytes of a non-2xx answer's body kept in `HTTPResponse.errorBody`.
    public let errorBodyLimit: Int
    private let idle = Locked<[CurlEasy]>([])
    private static let maxIdleHandles = 16

    public init(errorBodyLimit: Int = 64 * 1024) {
        self.errorBodyLimit = errorBodyLimit
    }

    /// Sends `request` with `body`. The final answer's status and headers go to `onHead` before
    /// any of its body (it may throw to refuse them); a 2xx answer's body is handed to `sink`
    /// piece by piece as it arrives (the sink may throw to abort). A callback's error is
    /// rethrown as it was. Any status is returned as an `HTTPResponse`; a transfer that fails
    /// throws `HTTPError`.
    public func send(_ request: HTTPRequest, body: HTTPBody = .none, onHead: (HTTPResponse) throws -> Void = { _ in },
                     sink: (UnsafeRawBufferPointer) throws -> Void = { _ in }) throws -> HTTPResponse {
        let easy = try idle.withLock { $0.popLast() } ?? CurlEasy()
        do {
            let response = try easy.perform(request, body: body, errorBodyLimit: errorBodyLimit, onHead: onHead, sink: sink)
            recycle(easy)
            return response
        } catch let e as HTTPError where e.isTransient {
            // The handle's connection is suspect: drop it with the handle.
            throw e
        } catch {
            recycle(easy)
            throw error
        }
    }

    private func recycle(_ easy: CurlEasy) {
        idle.withLock { if $0.count < Self.maxIdleHandles { $0.append(easy) } }
    }
}

extension HTTPError {
    /// The failure of `curl_easy_perform`, in the kinds a retry policy needs.
    /// `requestSent`: the request went out, so an argument or protocol complaint of libcurl's
    /// (an unsupported status code, a folded first header, HTTP/0.9) is about the answer.
    static func from(_ rc: CURLcode, message: String, requestSent: Bool) -> HTTPError {
        let text = message.isEmpty ? String(cString: curl_easy_strerror(rc)) : message
        let kind: Kind
        switch rc {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: kind = .connect
        case CURLE_OPERATION_TIMEDOUT: kind = .timeout
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE: kind = .reset
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_BAD_CONTENT_ENCODING: kind = .malformedResponse
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT: kind = .request
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR: kind = .tls
        default: kind = .transport
        }
        return HTTPError(kind == .request && requestSent ? .malformedResponse : kind, curlCode: Int32(rc.rawValue), text)
    }
}
