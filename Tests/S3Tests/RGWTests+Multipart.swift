import Crypto
import Foundation
import Ground
import Testing
@testable import S3

/// A source of `count` bytes whose reads fail from `limit` on (a disk error mid-blob).
struct FailingSource: ByteSource {
    let count: Int64
    let limit: Int64
    func read(at offset: Int64, count n: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset < limit else { throw .readFailed(offset: offset, errno: Errno.ioError.rawValue) }
        return [UInt8](repeating: 0x5c, count: Int(min(Int64(n), limit - offset, count - offset)))
    }
}

extension RGWTests {
    /// Interrupted multipart uploads: nothing a GET could take for the blob, and cleaned.
    @Suite struct Multipart {
        @Test func failingSourceAbortsTheUpload() throws {
            let server = try RGWServer.get()
            let store = try server.store(RGWServer.multipart)
            let id = ContentID(of: Array("thirty MiB that never came".utf8))
            var source = ByteReader(FailingSource(count: 30 << 20, limit: 10 << 20))
            do {
                _ = try store.put(id, size: 30 << 20, from: &source)
                Issue.record("a failing source was stored")
            } catch let e as S3Error {
                #expect(e.code == .input)
            }
            #expect(try !store.has(id))
            #expect(try store.pendingUploads().isEmpty)
        }

        @Test func abandonedUploadIsInvisibleAndCleaned() throws {
            let server = try RGWServer.get()
            let store = try server.store()
            let client = try server.client()
            // What a killed process leaves: an upload started, one part sent, never completed.
            let part = [UInt8](repeating: 0x11, count: 5 << 20)
            let id = ContentID(of: part + part)
            let key = store.key(for: id)
            let upload = try client.createMultipartUpload(bucket: server.bucket, key: key)
            _ = try part.withUnsafeBytes {
                try client.uploadPart(bucket: server.bucket, key: key, uploadID: upload, partNumber: 1, bytes: $0,
                                      sha256Hex: ContentID(of: part).hex, md5: MD5.digest(part))
            }
            #expect(try !store.has(id))
            #expect(throws: S3Error.self) { try store.get(id) { _ in } }
            #expect(server.peer(["exists", server.bucket, key]).stdout == "no\n")
            let pending = try store.pendingUploads()
            #expect(pending.map(\.uploadID) == [upload])
            #expect(pending.first?.key == key)
            // Young uploads are kept (a put may be running); old ones are aborted.
            #expect(try store.abortStaleUploads(olderThan: 3600) == 0)
            #expect(try store.abortStaleUploads(olderThan: 0, now: Date().addingTimeInterval(5)) == 1)
            #expect(try store.pendingUploads().isEmpty)
            // The blob can be stored afterwards.
            #expect(try store.put(id, bytes: part + part) == .new)
            try store.delete(id)
        }
    }
}

