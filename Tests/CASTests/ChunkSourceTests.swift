import Archive
import ArchiveLMDB
import CAS
import Foundation
import Ground
import LMDB
import TestLiterals
import Testing

/// Sources over stored and staged chunks (issue 12): a streamed stage reads back exactly the
/// staged bytes from the store before it is committed (what ingest's verifier reads for a large
/// file), and a chunk that goes bad between the whole-blob check and a ranged read is named by
/// the CAS's own code (`cas.chunk.missing`, `cas.chunk.damaged`), not `io.readFailed`.
@Suite struct ChunkSourceTests {
    func store(_ dir: TempDir, chunkSize: Int = 4096) throws -> ContentStore {
        var o = ContentStore.Options()
        o.chunkSize = chunkSize
        o.batchBytes = 3 * chunkSize
        return try ContentStore.create(at: dir.path + "/archive", options: o)
    }

    @Test(arguments: [1, 4095, 4096, 4097, 3 * 4096 + 5, 10 * 4096])
    func aStreamedStageReadsBackItsBytesFromTheStore(size: Int) throws {
        let dir = TempDir()
        let s = try store(dir)
        let data = patternBytes(size, seed: UInt64(size))
        var reader = ByteReader(MemoryByteSource(data))
        let staged = try s.stage(from: &reader)
        #expect(!staged.isInline)
        #expect(try !s.contains(staged.id), "streamed and still invisible")
        let source = try #require(s.source(of: staged))
        #expect(source is StagedBlobSource && source.count == Int64(size))
        #expect(try source.readAll() == data)
        // Ranges across chunk boundaries, at the end, and an empty one.
        for (at, n) in [(0, 10), (4090, 20), (Int64(size) - 3, 10), (Int64(size), 5), (1, 2 * 4096)] where at >= 0 && at <= Int64(size) {
            let want = Array(data[Int(at)..<min(size, Int(at) + n)])
            #expect(try source.read(at: at, count: n) == want)
            var buffer = [UInt8](repeating: 0, count: n)
            let got = try buffer.withUnsafeMutableBytes { try source.read(at: at, into: $0) }
            #expect(Array(buffer.prefix(got)) == want)
        }
        #expect(throws: ByteSourceError.outOfRange(offset: Int64(size) + 1, count: 1)) { try source.read(at: Int64(size) + 1, count: 1) }
        // An inline stage's source is its memory.
        #expect(try s.source(of: s.stage(inline: data)) is MemoryByteSource)
    }

    @Test func aChunkGoneAfterTheCheckIsNamedByTheCASCode() throws {
        let dir = TempDir()
        let s = try store(dir)
        let data = patternBytes(3 * 4096 + 7, seed: 9)
        var reader = ByteReader(MemoryByteSource(data))
        let id = try s.put(from: &reader).id
        let chunkIDs = try #require(try s.record(of: id)).chunks
        let source = try StoredBlobSource.verified(id, in: s)
        let staged = try { var r = ByteReader(MemoryByteSource(data)); return try s.stage(from: &r) }()
        let stagedSource = try #require(s.source(of: staged))
        let chunks = try s.environment.database("cas.chunks")

        // Missing: the second chunk deleted after the whole-blob check.
        #expect(try s.environment.write { txn in try txn.delete(chunks, chunkIDs[1]) })
        for src in [source as any ByteSource, stagedSource] {
            do throws(ByteSourceError) {
                _ = try src.read(at: 4096 + 10, count: 100)
                Issue.record("a missing chunk was read")
            } catch {
                #expect(error.code == StatusCode.casChunkMissing, "\(error)")
                #expect(error.description.contains(chunkIDs[1].hex))
            }
            // The chunks before it still read.
            #expect(try src.read(at: 0, count: 4096) == Array(data[0..<4096]))
        }

        // Damaged: the third chunk's value replaced by a shorter one.
        #expect(try s.environment.write { txn in try txn.put(chunks, chunkIDs[2].bytes, [UInt8](repeating: 7, count: 10)) })
        var buffer = [UInt8](repeating: 0, count: 64)
        do {
            _ = try buffer.withUnsafeMutableBytes { try source.read(at: 2 * 4096 + 1, into: $0) }
            Issue.record("a damaged chunk was read")
        } catch let error as ByteSourceError {
            #expect(error.code == StatusCode.casChunkDamaged, "\(error)")
            #expect(error.errno == Errno.ioError.rawValue)
        } catch {
            Issue.record("not a ByteSourceError: \(error)")
        }
    }
}
