import BlobStoreContract
import Crypto
import Foundation
import Ground
import Testing
@testable import S3

/// A pattern source of `count` bytes that changes under a reader: once one pass has read its
/// last byte (the MD5 pass before a single PUT), every byte from `count / 2` on is inverted —
/// a file rewritten by another program while its upload runs. With `changedFromStart` the bytes
/// are inverted from the first read on (a file changed after its ID was hashed).
final class ChangingSource: ByteSource, @unchecked Sendable {
    let count: Int64
    /// The bytes as first written, and as changed.
    let original: [UInt8]
    private let changed: [UInt8]
    private let changedFromStart: Bool
    private let passes = Locked(0)

    init(count: Int, changedFromStart: Bool = false) {
        self.count = Int64(count)
        self.changedFromStart = changedFromStart
        original = pattern(count, seed: 41)
        var changed = original
        changed.withUnsafeMutableBytes { bytes in
            let half = UnsafeMutableRawBufferPointer(rebasing: bytes[(count / 2)...]).bindMemory(to: UInt8.self)
            for i in half.indices { half[i] = ~half[i] }
        }
        self.changed = changed
    }

    func read(at offset: Int64, count n: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= count else { throw .outOfRange(offset: offset, count: n) }
        let end = Int(min(count, offset + Int64(n)))
        let now = changedFromStart || passes.withLock { $0 } > 0
        let bytes = Array((now ? changed : original)[Int(offset)..<end])
        if end == Int(count) { passes.withLock { $0 += 1 } }
        return bytes
    }
}

extension RGWTests {
    /// The streamed single PUT (up to the multipart threshold): the server checks the body
    /// against the ID (signed `x-amz-content-sha256`) and the MD5 pass; the threshold decides
    /// between one PUT and parts.
    @Suite struct SinglePut {
        /// 12 MiB: over the old 8 MiB threshold, so this is the streamed path, not a buffer.
        static let size = 12 << 20

        @Test(arguments: [false, true]) func sourceChangingUnderTheUploadIsRefusedAndLeavesNothing(fromStart: Bool) throws {
            let server = try RGWServer.get()
            let store = try server.store()
            #expect(Self.size <= store.options.multipartThreshold)
            let changing = ChangingSource(count: Self.size, changedFromStart: fromStart)
            let id = ContentID(of: changing.original)
            var source = ByteReader(changing)
            do {
                _ = try store.put(id, size: Int64(Self.size), from: &source)
                Issue.record("the server stored a body that is not blob \(id)")
            } catch let e as S3Error {
                #expect(e.code == .integrityRejected, "\(e)")
                // Changed from the start: the MD5 pass saw the new bytes, so only the SHA-256
                // (the ID) can tell; changed after it, both can.
                let expected = fromStart ? ["XAmzContentSHA256Mismatch"] : ["XAmzContentSHA256Mismatch", "BadDigest"]
                #expect(expected.contains(e.serverCode), "\(e)")
            }
            #expect(try !store.has(id))
            #expect(server.peer(["exists", server.bucket, store.key(for: id)]).stdout == "no\n")
            #expect(try store.pendingUploads().isEmpty)
            // The same source unchanged (a fresh one) is stored, and reads back as the ID.
            #expect(try store.put(id, bytes: changing.original) == .new)
            var count: Int64 = 0
            let hasher = MessageDigest(.sha256)
            try store.get(id) { hasher.update($0); count += Int64($0.count) }
            #expect(count == Int64(Self.size) && ContentID(digest: hasher.finalize()) == id)
            try store.delete(id)
        }

        /// Around a threshold (12 MiB here, to keep the objects small; RoundTrip and Contract run
        /// the default's ± 1): up to it one PUT (a plain MD5 ETag), above it parts (`…-2"`).
        @Test(arguments: [-1, 0, 1]) func thresholdDecidesOnePutOrParts(delta: Int) throws {
            let threshold = 12 << 20
            let server = try RGWServer.get()
            let store = try server.store(.init(multipartThreshold: threshold))
            let size = Int64(threshold + delta)
            let dir = TempDir()
            let path = dir.file("in")
            try writePattern(path, count: Int(size), seed: UInt64(threshold + delta))
            let id = try fileID(path)
            var (handle, source) = try fileSource(path)
            #expect(try store.put(id, size: size, from: &source) == .new)
            try handle.close()
            let info = try #require(try store.stat(id))
            #expect(info.size == size)
            let multipart = info.etag.hasSuffix("-2\"") || info.etag.hasSuffix("-2")
            #expect(multipart == (delta > 0), "ETag \(info.etag) for \(size) B, threshold \(threshold)")
            let peer = server.peer(["sha256", server.bucket, store.key(for: id)])
            #expect(peer.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == id.hex)
            #expect(try store.pendingUploads().isEmpty)
            try store.delete(id)
        }

        @Test func thresholdAboveS3sSinglePutLimitIsRefused() throws {
            let server = try RGWServer.get()
            #expect(throws: S3Error.self) { try server.store(.init(multipartThreshold: S3BlobStore.Options.maxSinglePut + 1)) }
            _ = try server.store(.init(multipartThreshold: S3BlobStore.Options.maxSinglePut))
        }
    }
}
