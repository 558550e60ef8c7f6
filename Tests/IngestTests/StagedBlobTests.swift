import CAS
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

/// CAS staging as ingest uses it: a staged blob is invisible until committed in the caller's
/// transaction; inline and streamed staging give the same blob as `put`.
@Suite struct StagedBlobTests {
    func store(chunkSize: Int = 4096) throws -> ContentStore {
        var o = ContentStore.Options()
        o.chunkSize = chunkSize
        o.batchBytes = 3 * chunkSize
        o.environment.mapSize = 1 << 20
        return try ContentStore.create(at: DumpFixture.scratch("stage") + "/archive", options: o)
    }

    /// Pseudo-random bytes (xorshift): no two chunks alike.
    func bytes(_ n: Int, seed: UInt8) -> [UInt8] {
        var x = UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15
        return (0..<n).map { _ in
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return UInt8(truncatingIfNeeded: x)
        }
    }

    @Test(arguments: [0, 1, 4095, 4096, 4097, 3 * 4096 + 5, 10 * 4096])
    func stagedEqualsPut(size: Int) throws {
        let data = bytes(size, seed: UInt8(size % 251))
        let path = DumpFixture.scratch("stage-file") + "/f"
        _ = FileManager.default.createFile(atPath: path, contents: Data(data))
        let want = try #require(ContentID(digest: MessageDigest.sha256(data)))
        let reference = try store()
        _ = try reference.put(contentsOf: path)
        for inlineLimit in [0, 1 << 20] {
            let s = try store()
            let staged = try s.stage(contentsOf: path, inlineLimit: inlineLimit)
            #expect(staged.id == want)
            #expect(staged.size == UInt64(size))
            #expect(staged.isInline == (inlineLimit > 0))
            #expect(try !s.contains(want), "invisible before commit")
            #expect(try s.environment.write { txn in try s.commit(staged, in: txn) })
            #expect(try s.bytes(of: want) == data)
            #expect(try s.audit().isClean)
            #expect(try s.stats().pendingPuts == 0)
            // The record is the one put writes.
            #expect(try s.record(of: want) == reference.record(of: want))
            // Staging the same content again: not new, no chunk added.
            let chunks = try s.stats().chunks
            let again = try s.stage(contentsOf: path, inlineLimit: inlineLimit)
            #expect(try s.environment.write { txn in try s.commit(again, in: txn) } == false)
            #expect(try s.stats().chunks == chunks)
        }
    }

    @Test func releasedStreamedStageLeavesOnlyGarbage() throws {
        let s = try store()
        let path = DumpFixture.scratch("stage-release") + "/f"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes(5 * 4096, seed: 3)))
        let staged = try s.stage(contentsOf: path)
        #expect(try s.stats().pendingPuts == 1)
        try s.environment.write { txn in try s.release(staged, in: txn) }
        #expect(try s.stats().pendingPuts == 0)
        #expect(try s.stats().blobs == 0)
        #expect(try s.collectGarbage().chunksRemoved == 5)
        #expect(try s.stats().chunks == 0)
    }
}
