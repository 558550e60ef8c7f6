import Foundation
import Testing
@testable import HTTP

/// The HTTP layer's typed errors and limits, against real sockets: a closed port, a server
/// that stalls, resets, or sends a malformed or oversized head; and well-formed answers
/// (status, headers, a body streamed to the sink, an error body kept) from the same kind of peer.
@Suite struct HTTPClientTests {
    let client = HTTPClient()

    func kind(_ request: HTTPRequest, body: HTTPBody = .none) -> HTTPError.Kind? {
        do { _ = try client.send(request, body: body); return nil } catch { return (error as? HTTPError)?.kind }
    }

    @Test func closedPortIsConnect() {
        let k = kind(HTTPRequest(method: "GET", url: "http://127.0.0.1:9/x", connectTimeout: 2))
        #expect(k == .connect)
    }

    @Test func stalledAnswerIsTimeout() throws {
        let server = try FaultyServer(.stall(seconds: 4))
        let t0 = Date()
        #expect(kind(HTTPRequest(method: "GET", url: server.url, stallTimeout: 1)) == .timeout)
        #expect(Date().timeIntervalSince(t0) < 3.5)
    }

    @Test func resetIsReset() throws {
        let server = try FaultyServer(.reset)
        #expect(kind(HTTPRequest(method: "GET", url: server.url)) == .reset)
    }

    @Test func truncatedBodyIsReset() throws {
        let server = try FaultyServer(.reply(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b".utf8)))
        var got = 0
        do {
            _ = try client.send(HTTPRequest(method: "GET", url: server.url), sink: { got += $0.count })
            Issue.record("a body cut short was accepted")
        } catch let e as HTTPError {
            #expect(e.kind == .reset)
            #expect(e.isTransient)
        }
        #expect(got == 10)
    }

    @Test(arguments: [
        "HELLO\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\n folded: line\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n",
        "HTTP/1.1 200 OK\r\n" + String(repeating: "X-F: 1\r\n", count: 201) + "\r\n",
    ])
    func malformedHeadIsRefused(_ answer: String) throws {
        let server = try FaultyServer(.reply(Array(answer.utf8)))
        #expect(kind(HTTPRequest(method: "GET", url: server.url)) == .malformedResponse)
    }

    @Test func answerHeadBodyAndErrorBody() throws {
        let ok = try FaultyServer(.reply(Array("HTTP/1.1 200 OK\r\nETag: \"abc\"\r\nContent-Length: 5\r\n\r\nhello".utf8)))
        var heads: [Int] = []
        var body: [UInt8] = []
        let r = try client.send(HTTPRequest(method: "GET", url: ok.url), onHead: { heads.append($0.status) }) { body += $0 }
        #expect(r.status == 200 && r.header("ETag") == "\"abc\"" && heads == [200])
        #expect(body == Array("hello".utf8) && r.errorBody.isEmpty && r.bodyBytes == 5)

        let notFound = try FaultyServer(.reply(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 7\r\n\r\n<Error>".utf8)))
        var sunk = 0
        let e = try client.send(HTTPRequest(method: "GET", url: notFound.url), sink: { sunk += $0.count })
        #expect(e.status == 404 && e.errorBody == Array("<Error>".utf8) && sunk == 0)
    }

    @Test func streamedBodyShortOfItsLengthIsShortBody() throws {
        let server = try FaultyServer(.stall(seconds: 3))
        var left = 10
        let body = HTTPBody.stream(length: 100) { buffer in
            let n = min(left, buffer.count)
            left -= n
            for i in 0..<n { buffer[i] = 0x61 }
            return n
        }
        #expect(kind(HTTPRequest(method: "PUT", url: server.url, expectContinue: false), body: body) == .shortBody)
    }

    @Test func positionedBodyShortOfItsLengthIsShortBody() throws {
        let server = try FaultyServer(.stall(seconds: 3))
        let body = HTTPBody.positioned(length: 100) { offset, buffer in
            let n = max(0, min(10 - Int(offset), buffer.count))
            for i in 0..<n { buffer[i] = 0x61 }
            return n
        }
        #expect(kind(HTTPRequest(method: "PUT", url: server.url, expectContinue: false), body: body) == .shortBody)
    }

    /// A positioned body is read at the offsets libcurl asks for, and rewinds (libcurl
    /// resending on a fresh connection) like a buffer; a stream cannot.
    @Test func positionedBodyRewinds() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let body = HTTPBody.positioned(length: 1000) { offset, buffer in
            let n = min(buffer.count, 1000 - Int(offset))
            for i in 0..<n { buffer[i] = bytes[Int(offset) + i] }
            return n
        }
        let transfer = CurlTransfer(body: body, onHead: { _ in }, sink: { _ in }, errorBodyLimit: 0)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 300, alignment: 1)
        defer { buffer.deallocate() }
        func drain() -> [UInt8] {
            var out: [UInt8] = []
            while let n = transfer.send(into: buffer), n > 0 { out += buffer[..<n] }
            return out
        }
        #expect(drain() == bytes)
        #expect(transfer.seek(to: 0))
        #expect(drain() == bytes)
        #expect(transfer.seek(to: 600))
        #expect(drain() == Array(bytes[600...]))
        #expect(!transfer.seek(to: 1001))
        let stream = CurlTransfer(body: .stream(length: 10) { $0[0] = 1; return 1 }, onHead: { _ in }, sink: { _ in }, errorBodyLimit: 0)
        #expect(stream.send(into: buffer) == 1)
        #expect(!stream.seek(to: 0))
    }

    @Test func forbiddenHeaderCharactersAreRefusedUnsent() {
        let r = HTTPRequest(method: "GET", url: "http://127.0.0.1:9/x", headers: [("X-A", "v\r\nInjected: 1")])
        #expect(kind(r) == .request)
    }
}
