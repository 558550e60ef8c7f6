import CCurl

/// The state of one transfer, reached from libcurl's callbacks through their context pointer:
/// the body being sent, the sink receiving, and the answer's head as it arrives. Every length
/// from the server is checked against a limit before it is kept.
final class CurlTransfer {
    /// Limits on the head of an answer (status line and fields, interim answers included).
    static let maxHeadBytes = 64 * 1024
    static let maxHeaderFields = 200

    let body: HTTPBody
    var bodyOffset: Int64 = 0
    let sink: (UnsafeRawBufferPointer) throws -> Void
    let onHead: (HTTPResponse) throws -> Void
    let errorBodyLimit: Int

    var status = 0
    var headers: [(name: String, value: String)] = []
    var headBytes = 0
    var errorBody: [UInt8] = []
    var bodyBytes: Int64 = 0
    /// The first error of a callback; the transfer is aborted and `perform` throws it.
    var failure: (any Error)?

    init(body: HTTPBody, onHead: @escaping (HTTPResponse) throws -> Void,
         sink: @escaping (UnsafeRawBufferPointer) throws -> Void, errorBodyLimit: Int) {
        self.body = body
        self.onHead = onHead
        self.sink = sink
        self.errorBodyLimit = errorBodyLimit
    }

    /// One header line as libcurl hands it over (with its CRLF). Returns false to abort.
    func header(_ line: UnsafeRawBufferPointer) -> Bool {
        headBytes += line.count
        guard headBytes <= Self.maxHeadBytes else {
            failure = HTTPError(.malformedResponse, "response head longer than \(Self.maxHeadBytes) bytes")
            return false
        }
        var bytes = Array(line)
        while let last = bytes.last, last == 10 || last == 13 { bytes.removeLast() }
        if bytes.isEmpty {
            // The blank line ending a head: a final answer's head goes to onHead before its body.
            guard status >= 200 else { return true }
            do { try onHead(HTTPResponse(status: status, headers: headers, errorBody: [], bodyBytes: 0)) } catch {
                failure = error
                return false
            }
            return true
        }
        if bytes.starts(with: Array("HTTP/".utf8)) {
            // Status line: a new answer (after a 100 Continue) replaces the fields seen so far.
            let parts = bytes.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[1].count == 3, let code = Int(String(decoding: parts[1], as: UTF8.self)),
                  (100...599).contains(code) else {
                failure = HTTPError(.malformedResponse, "bad status line")
                return false
            }
            status = code
            headers = []
            return true
        }
        guard status != 0, let colon = bytes.firstIndex(of: 58), colon > 0,
              bytes[0] != 32, bytes[0] != 9, headers.count < Self.maxHeaderFields else {
            failure = HTTPError(.malformedResponse, headers.count >= Self.maxHeaderFields
                                ? "more than \(Self.maxHeaderFields) header fields" : "malformed header line")
            return false
        }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: bytes[(colon + 1)...], as: UTF8.self).trimmingSpaces()
        headers.append((name, value))
        return true
    }

    /// Body bytes of the answer: a 2xx body goes to the sink, another is kept up to the limit.
    func receive(_ data: UnsafeRawBufferPointer) -> Bool {
        bodyBytes += Int64(data.count)
        if (200...299).contains(status) {
            do { try sink(data) } catch {
                failure = error
                return false
            }
        } else if errorBody.count < errorBodyLimit {
            errorBody += data.prefix(errorBodyLimit - errorBody.count)
        }
        return true
    }

    /// Fills `buffer` with the next body bytes; nil aborts the transfer.
    func send(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let length = body.length else { return 0 }
        let want = Int(min(Int64(buffer.count), length - bodyOffset))
        if want <= 0 { return 0 }
        switch body {
        case .none:
            return 0
        case .buffer(let bytes):
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + Int(bodyOffset), byteCount: want)
            bodyOffset += Int64(want)
            return want
        case .stream(_, let read):
            return pull(want, length: length) { try read(UnsafeMutableRawBufferPointer(rebasing: buffer[..<$0])) }
        case .positioned(_, let read):
            return pull(want, length: length) { [bodyOffset] in try read(bodyOffset, UnsafeMutableRawBufferPointer(rebasing: buffer[..<$0])) }
        }
    }

    /// Up to `want` body bytes from `read`; a source that gives none (or more than asked) before
    /// `length` is `http.body.short`, and a source's own error aborts the transfer as it was.
    private func pull(_ want: Int, length: Int64, _ read: (Int) throws -> Int) -> Int? {
        do {
            let got = try read(want)
            guard got > 0, got <= want else {
                failure = HTTPError(.shortBody, "the body source ended after \(bodyOffset) of \(length) bytes")
                return nil
            }
            bodyOffset += Int64(got)
            return got
        } catch {
            failure = error
            return nil
        }
    }

    /// Rewinds the body (libcurl resending on a new connection): a buffer or a positioned source can.
    func seek(to offset: Int64) -> Bool {
        switch body {
        case .buffer(let bytes) where offset >= 0 && offset <= Int64(bytes.count):
            bodyOffset = offset
            return true
        case .positioned(let length, _) where offset >= 0 && offset <= length:
            bodyOffset = offset
            return true
        default:
            return offset == bodyOffset
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

private func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
}

let curlHeaderCallback: exhibit_curl_data_callback = { data, size, count, context in
    let n = size * count
    return transfer(context).header(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
}

let curlWriteCallback: exhibit_curl_data_callback = { data, size, count, context in
    let n = size * count
    return transfer(context).receive(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
}

let curlReadCallback: exhibit_curl_data_callback = { data, size, count, context in
    let buffer = UnsafeMutableRawBufferPointer(start: data, count: size * count)
    return transfer(context).send(into: buffer) ?? exhibit_curl_readfunc_abort
}

let curlSeekCallback: exhibit_curl_seek_callback = { context, offset, origin in
    guard origin == SEEK_SET else { return exhibit_curl_seekfunc_cantseek }
    return transfer(context).seek(to: Int64(offset)) ? exhibit_curl_seekfunc_ok : exhibit_curl_seekfunc_cantseek
}
