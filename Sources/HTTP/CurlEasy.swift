import CCurl

/// libcurl's process-wide set-up, run once before the first handle (Swift runs a global's
/// initialiser exactly once, thread-safely).
private let curlGlobalInit: CURLcode = curl_global_init(exhibit_curl_global_default)

/// One libcurl easy handle. The final class owns the `CURL *` and cleans it up in `deinit`; the
/// handle keeps its connection cache between transfers (keep-alive). Not thread-safe: one
/// transfer at a time (`HTTPClient` hands each thread its own).
final class CurlEasy: @unchecked Sendable {
    /// Bytes libcurl moves per read or write callback.
    static let pieceSize = 512 * 1024
    private let handle: UnsafeMutableRawPointer
    /// libcurl writes its message for a failed transfer here (CURLOPT_ERRORBUFFER).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(HTTPError) {
        guard curlGlobalInit == CURLE_OK else { throw HTTPError(.transport, curlCode: Int32(curlGlobalInit.rawValue), "curl_global_init failed") }
        guard let h = curl_easy_init() else { throw HTTPError(.transport, "curl_easy_init failed") }
        handle = h
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sends `request` with `body`, handing the final answer's head to `onHead` and streaming a
    /// 2xx answer's body to `sink`. Throws an `HTTPError`, or what a callback or the body's
    /// reader threw.
    func perform(_ request: HTTPRequest, body: HTTPBody, errorBodyLimit: Int, onHead: (HTTPResponse) throws -> Void,
                 sink: (UnsafeRawBufferPointer) throws -> Void) throws -> HTTPResponse {
        try withoutActuallyEscaping(onHead) { onHead in try withoutActuallyEscaping(sink) { sink in
            let transfer = CurlTransfer(body: body, onHead: onHead, sink: sink, errorBodyLimit: errorBodyLimit)
            var list: UnsafeMutablePointer<curl_slist>? = nil
            defer { curl_slist_free_all(list) }
            for h in request.headers {
                guard !h.name.isEmpty, !h.name.utf8.contains(where: { $0 == 58 || $0 < 33 || $0 > 126 }),
                      !h.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                    throw HTTPError(.request, "header \(h.name.debugDescription) has a character HTTP forbids")
                }
                list = curl_slist_append(list, "\(h.name): \(h.value)")
            }
            if body.length != nil, !request.expectContinue { list = curl_slist_append(list, "Expect:") }
            try configure(request, body: body, headers: list, transfer: transfer)
            errorBuffer[0] = 0
            let rc = withExtendedLifetime(transfer) { curl_easy_perform(handle) }
            if let failure = transfer.failure { throw failure }
            guard rc == CURLE_OK else {
                var sent = 0
                _ = exhibit_curl_getinfo_long(handle, CURLINFO_REQUEST_SIZE, &sent)
                throw HTTPError.from(rc, message: String(cString: errorBuffer), requestSent: sent > 0)
            }
            var status = 0
            _ = exhibit_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            guard (100...599).contains(status), status == transfer.status else {
                throw HTTPError(.malformedResponse, "no final status line (libcurl saw \(status), header \(transfer.status))")
            }
            return HTTPResponse(status: status, headers: transfer.headers, errorBody: transfer.errorBody,
                                bodyBytes: transfer.bodyBytes)
        } }
    }

    private func configure(_ request: HTTPRequest, body: HTTPBody, headers: UnsafeMutablePointer<curl_slist>?,
                           transfer: CurlTransfer) throws(HTTPError) {
        curl_easy_reset(handle)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var rcs: [CURLcode] = [
            exhibit_curl_setopt_string(handle, CURLOPT_URL, request.url),
            exhibit_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            exhibit_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            // Never a proxy from the environment: the endpoint is reached directly.
            exhibit_curl_setopt_string(handle, CURLOPT_PROXY, ""),
            exhibit_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            exhibit_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            exhibit_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)),
            exhibit_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(request.connectTimeout * 1000))),
            exhibit_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1),
            exhibit_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, request.stallTimeout)),
            exhibit_curl_setopt_long(handle, CURLOPT_TCP_NODELAY, 1),
            // Larger pieces than libcurl's 64 KiB / 16 KiB defaults: fewer callbacks and syscalls.
            exhibit_curl_setopt_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, Self.pieceSize),
            exhibit_curl_setopt_long(handle, CURLOPT_BUFFERSIZE, Self.pieceSize),
            exhibit_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers),
            exhibit_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback),
            exhibit_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context),
            exhibit_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteCallback),
            exhibit_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
        ]
        switch request.method {
        case "GET":
            rcs.append(exhibit_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case "HEAD":
            rcs.append(exhibit_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        default:
            if let length = body.length ?? (request.method == "PUT" || request.method == "POST" ? 0 : nil) {
                rcs += [
                    exhibit_curl_setopt_long(handle, CURLOPT_UPLOAD, 1),
                    exhibit_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(length)),
                    exhibit_curl_setopt_data_callback(handle, CURLOPT_READFUNCTION, curlReadCallback),
                    exhibit_curl_setopt_pointer(handle, CURLOPT_READDATA, context),
                    exhibit_curl_setopt_seek_callback(handle, curlSeekCallback),
                    exhibit_curl_setopt_pointer(handle, CURLOPT_SEEKDATA, context),
                ]
            }
            if request.method != "PUT" {
                rcs.append(exhibit_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
            }
        }
        if let bad = rcs.first(where: { $0 != CURLE_OK }) {
            throw HTTPError(.request, curlCode: Int32(bad.rawValue), "curl_easy_setopt: \(String(cString: curl_easy_strerror(bad)))")
        }
    }
}
