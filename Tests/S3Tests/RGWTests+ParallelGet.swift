import BlobStoreContract
import Crypto
import Foundation
import Ground
import Testing
@testable import S3

extension RGWTests {
    /// A blob larger than one part is read by ranged GETs in parallel (`RangePipeline`), each
    /// with `If-Match` on the first answer's ETag, re-hashed in order.
    @Suite struct ParallelGet {
        /// Sizes around the range size (8 MiB) and many ranges; one GET (concurrency 1) and
        /// four in flight give the same bytes, which hash to the ID.
        @Test(arguments: [(8 << 20) - 1, 8 << 20, (8 << 20) + 1, (50 << 20) + 3])
        func rangesComeBackInOrder(size: Int) throws {
            let server = try RGWServer.get()
            let store = try server.store()
            let dir = TempDir()
            let path = dir.file("in")
            try writePattern(path, count: size, seed: UInt64(size) &+ 5)
            let id = try fileID(path)
            var (handle, source) = try fileSource(path)
            _ = try store.put(id, size: Int64(size), from: &source)
            try handle.close()
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            for concurrency in [1, 4] {
                var options = S3BlobStore.Options()
                options.downloadConcurrency = concurrency
                let reader = try S3BlobStore(client: store.client, bucket: store.bucket, prefix: store.prefix, options: options)
                var got = Data()
                var largest = 0
                let count = try reader.get(id) { got.append(contentsOf: $0); largest = max(largest, $0.count) }
                #expect(count == Int64(size))
                #expect(got == original, "concurrency \(concurrency)")
                #expect(largest <= 1 << 20, "pieces stay small (the last is held back)")
            }
            try store.delete(id)
        }

        /// boto3 replaces the object while our get waits in its sink after the first piece:
        /// the ranges fetched after it are refused (`If-Match`) or the whole does not hash to
        /// the ID — either way `s3.integrity.mismatch`, and the sink never gets the whole blob.
        @Test func objectReplacedDuringTheGetIsRefused() throws {
            let server = try RGWServer.get()
            let store = try server.store()
            // Ten ranges: more than the pipeline's five buffers, so some are fetched after the
            // replacement whatever the timing.
            let size = 80 << 20
            let dir = TempDir()
            let path = dir.file("in")
            try writePattern(path, count: size, seed: 77)
            let id = try fileID(path)
            var (handle, source) = try fileSource(path)
            _ = try store.put(id, size: Int64(size), from: &source)
            try handle.close()
            let other = dir.file("other")
            try Data(repeating: 0x42, count: size).write(to: URL(fileURLWithPath: other))
            var delivered = 0
            var replaced = false
            do {
                try store.get(id) { piece in
                    if !replaced {
                        replaced = true
                        #expect(server.peer(["put", server.bucket, store.key(for: id), other]).status == 0)
                    }
                    delivered += piece.count
                }
                Issue.record("a get spliced or returned an object replaced under it")
            } catch let e as S3Error {
                #expect(e.code == .integrityMismatch, "\(e)")
            }
            #expect(delivered < size, "the whole of a changed blob reached the sink")
            try store.delete(id)
        }
    }
}
