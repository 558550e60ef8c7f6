import BlobStoreContract
import Foundation
import Ground
import ProcessSupport
import Testing
@testable import S3

/// Every test that talks to the real Ceph RGW, one at a time: one of them kills and restarts
/// radosgw, and the machine has two cores. Each test works under its own key prefix.
@Suite(.serialized) struct RGWTests {}

extension RGWTests {
    @Suite struct RoundTrip {
        static let threshold = S3BlobStore.Options().multipartThreshold

        @Test(arguments: [0, 1, threshold - 1, threshold, threshold + 1, 100 << 20])
        func putGetKnown(size: Int) throws {
            let server = try RGWServer.get()
            let store = try server.store()
            let dir = TempDir()
            let path = dir.file("in")
            try writePattern(path, count: size, seed: UInt64(size) &+ 11)
            let id = try fileID(path)
            var (handle, source) = try fileSource(path)
            #expect(try store.put(id, size: Int64(size), from: &source) == .new)
            try handle.close()
            #expect(try store.stat(id)?.size == Int64(size))
            // An independent client reads the object: its bytes are the file's.
            let peer = server.peer(["sha256", server.bucket, store.key(for: id)])
            #expect(peer.status == 0, "\(peer.stderr)")
            #expect(peer.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == id.hex)
            // Our verified get, written to a file, hashes (by openssl) to the ID.
            let out = dir.file("out")
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            let count = try store.get(id) { try writer.write(contentsOf: Data($0)) }
            try writer.close()
            #expect(count == Int64(size))
            #expect(opensslSHA256(out) == id.hex)
            // Put-if-absent: the second time it is known.
            var (again, source2) = try fileSource(path)
            #expect(try store.put(id, size: Int64(size), from: &source2) == .known)
            try again.close()
            #expect(try store.pendingUploads().isEmpty)
            #expect(try store.delete(id))
            #expect(try !store.has(id))
        }

        @Test func listPagesThroughEveryBlob() throws {
            let server = try RGWServer.get()
            let store = try server.store()
            var ids: Set<ContentID> = []
            for i in 0..<5 {
                let bytes = Array("blob \(i)".utf8)
                let id = ContentID(of: bytes)
                _ = try store.put(id, bytes: bytes)
                ids.insert(id)
            }
            // A key outside the layout is counted, not listed.
            let client = try server.client()
            _ = try Array("x".utf8).withUnsafeBytes {
                try client.put(bucket: server.bucket, key: store.blobsPrefix + "zz/not-a-blob", bytes: $0,
                               sha256Hex: ContentID(of: Array("x".utf8)).hex, ifNoneMatch: false)
            }
            var seen: [ContentID: Int64] = [:]
            let summary = try store.list { seen[$0] = $1 }
            #expect(Set(seen.keys) == ids)
            #expect(summary.blobs == 5 && summary.foreignKeys == 1)
            #expect(seen[ContentID(of: Array("blob 3".utf8))] == 6)
            // Pagination: two keys a page gives the same keys.
            var token: String?
            var paged: [String] = []
            repeat {
                let page = try client.listObjects(bucket: server.bucket, prefix: store.blobsPrefix, continuation: token, maxKeys: 2)
                #expect(page.objects.count <= 2)
                paged += page.objects.map(\.key)
                token = page.next
            } while token != nil
            #expect(paged.count == 6 && paged == paged.sorted())
            for id in ids { try store.delete(id) }
            try client.delete(bucket: server.bucket, key: store.blobsPrefix + "zz/not-a-blob")
        }
    }
}
