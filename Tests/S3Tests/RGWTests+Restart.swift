import BlobStoreContract
import Foundation
import Ground
import ProcessSupport
import Testing
@testable import HTTP
@testable import S3

extension RGWTests {
    /// radosgw killed (SIGKILL, by its pid file) and started again (ceph-up.sh) in the middle of
    /// transfers: each call either rides through on retries or fails with `s3.unavailable`;
    /// nothing half-written is visible; a re-run completes.
    @Suite struct Restart {
        static let patient = S3RetryPolicy(maxAttempts: 12, baseDelay: 0.25, maxDelay: 3)

        func killAndRestartRadosgw(_ server: RGWServer) throws {
            let pidFile = server.cephDir + "/run/client.rgw.a.pid"
            let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(kill(pid, SIGKILL) == 0)
            while kill(pid, 0) == 0 { usleep(10_000) }
            usleep(300_000)
            let up = Run.capture(["bash", RGWServer.repository.appendingPathComponent("scripts/services/ceph-up.sh").path, server.cephDir])
            #expect(up.status == 0, "\(up.stderr)")
        }

        @Test func putAndGetThroughARestart() throws {
            let server = try RGWServer.get()
            let store = try server.store(retry: Self.patient)
            let dir = TempDir()
            let path = dir.file("blob")
            let size = 160 << 20
            try writePattern(path, count: size, seed: 99)
            let id = try fileID(path)

            // Put, with radosgw killed 0.4 s in.
            let outcome = Outcome()
            let putter = Thread {
                do {
                    var (h, source) = try fileSource(path)
                    defer { try? h.close() }
                    outcome.set(.success(try store.put(id, size: Int64(size), from: &source)))
                } catch { outcome.set(.failure(error)) }
            }
            putter.start()
            usleep(400_000)
            try killAndRestartRadosgw(server)
            let result = outcome.wait()
            switch result {
            case .success(let status): #expect(status == .new)
            case .failure(let error): #expect((error as? S3Error)?.code == .unavailable, "\(error)")
            }
            // Whatever happened, what is there is the blob whole or nothing.
            if let info = try store.stat(id) { #expect(info.size == Int64(size)) }
            var (h, source) = try fileSource(path)
            _ = try store.put(id, size: Int64(size), from: &source)
            try h.close()

            // Get, with radosgw killed 0.3 s in: resumed with If-Match, or unavailable.
            let got = Outcome()
            let getter = Thread {
                do {
                    var count: Int64 = 0
                    try store.get(id) { count += Int64($0.count); usleep($0.count > 0 ? 200 : 0) }
                    got.set(.success(count == Int64(size) ? .new : .known))
                } catch { got.set(.failure(error)) }
            }
            getter.start()
            usleep(300_000)
            try killAndRestartRadosgw(server)
            switch got.wait() {
            case .success(let whole): #expect(whole == .new, "a resumed get delivered another byte count")
            case .failure(let error): #expect((error as? S3Error)?.code == .unavailable, "\(error)")
            }
            var count: Int64 = 0
            try store.get(id) { count += Int64($0.count) }
            #expect(count == Int64(size))
            _ = try store.abortStaleUploads(olderThan: 0, now: Date().addingTimeInterval(5))
            #expect(try store.pendingUploads().isEmpty)
            try store.delete(id)
        }

        @Test func nothingListeningIsUnavailableAfterBoundedRetries() throws {
            let client = S3Client(endpoint: try S3Endpoint(url: "http://127.0.0.1:9", region: "us-east-1"),
                                  credentials: S3Credentials(accessKeyID: "AK", secretAccessKey: "SK"),
                                  retry: S3RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.02))
            do {
                _ = try client.head(bucket: "exhibit-test", key: "k")
                Issue.record("a request to a closed port succeeded")
            } catch let e as S3Error {
                #expect(e.code == .unavailable)
                #expect(e.transport?.kind == .connect)
                #expect(e.message.contains("after 3 attempts"))
            }
        }
    }
}

/// The result of a call on another thread.
final class Outcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<S3BlobStore.PutStatus, any Error>?
    func set(_ r: Result<S3BlobStore.PutStatus, any Error>) { result = r; done.signal() }
    func wait() -> Result<S3BlobStore.PutStatus, any Error> { done.wait(); return result! }
}
