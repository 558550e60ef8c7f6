import Archive
import CAS
import Foundation
import Ground
import LMDB
import TestLiterals
import Testing

@Suite struct DamageTests {
    /// Finds `needle` in the file and flips one byte of it there.
    func flipByte(in file: String, at needle: [UInt8]) throws -> Bool {
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        guard let start = firstIndex(of: needle, in: data) else { return false }
        data[start + needle.count / 2] ^= 0x01
        try Data(data).write(to: URL(fileURLWithPath: file))
        return true
    }

    func firstIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard needle.count <= hay.count else { return nil }
        var i = 0
        while i <= hay.count - needle.count {
            if hay[i] == needle[0] && hay[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    @Test func damagedChunkIsRefusedByGetAndNamedByAudit() throws {
        let dir = TempDir()
        let path = dir.path + "/archive"
        let chunk = ContentStore.defaultChunkSize
        let bytes = patternBytes(3 * chunk, seed: 5)
        let other = patternBytes(1000, seed: 6)
        let (id, chunkIDs, otherID): (ContentID, [ContentID], ContentID) = try {
            let store = try ContentStore.create(at: path)
            var s = ByteReader(MemoryByteSource(bytes))
            var o = ByteReader(MemoryByteSource(other))
            let id = try store.put(from: &s).id
            let otherID = try store.put(from: &o).id
            return (id, try #require(try store.record(of: id)).chunks, otherID)
        }()
        // The middle chunk's bytes start with this pattern; flip a byte where it sits on disk.
        let needle = Array(bytes[chunk + 1000 ..< chunk + 1064])
        #expect(try flipByte(in: path + "/data.mdb", at: needle))

        let store = try ContentStore.open(at: path)
        var delivered = 0
        #expect(throws: CASError.damagedChunk(blob: id, index: 1, chunk: chunkIDs[1])) {
            try store.read(id) { delivered += $0.count }
        }
        #expect(delivered == 2 * chunk)  // the last chunk is withheld: the blob did not match
        #expect(throws: CASError.damagedChunk(blob: id, index: 1, chunk: chunkIDs[1])) {
            try store.export(id, to: dir.path + "/out.bin")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/out.bin"))

        let report = try store.audit()
        #expect(report.blobsChecked == 2)
        #expect(report.damaged.count == 1)
        #expect(report.damaged.first?.blob == id)
        #expect(report.damaged.first?.damagedChunks == [BlobDamage.Chunk(index: 1, id: chunkIDs[1])])
        #expect(try store.bytes(of: otherID) == other)
    }

    @Test func missingChunkIsNamedByAuditAndGet() throws {
        let dir = TempDir()
        let store = try ContentStore.create(at: dir.path + "/archive")
        let bytes = patternBytes(2 * ContentStore.defaultChunkSize + 3, seed: 12)
        var s = ByteReader(MemoryByteSource(bytes))
        let id = try store.put(from: &s).id
        let chunkIDs = try #require(try store.record(of: id)).chunks
        let chunks = try store.environment.database("cas.chunks")
        let deleted = try store.environment.write { txn in try txn.delete(chunks, chunkIDs[2]) }
        #expect(deleted)
        #expect(throws: CASError.missingChunk(blob: id, index: 2, chunk: chunkIDs[2])) { try store.bytes(of: id) }
        let report = try store.audit(sample: 0.5)
        #expect(report.blobsChecked == 1)
        #expect(report.damaged.first?.missingChunks == [BlobDamage.Chunk(index: 2, id: chunkIDs[2])])
        #expect(report.damaged.first?.damagedChunks == [])
    }

    @Test func recordDecodingRejectsBadLengths() throws {
        let record = BlobRecord(size: 10, chunkSize: 4, chunks: [ContentID(of: [UInt8]([1])), ContentID(of: [UInt8]([2])), ContentID(of: [UInt8]([3]))])
        let raw = record.encoded()
        let decoded = try raw.withUnsafeBytes { try BlobRecord(decoding: $0) }
        #expect(decoded == record)
        _ = (raw + [0]).withUnsafeBytes { r in #expect(throws: BlobRecord.RecordError.lengthMismatch) { try BlobRecord(decoding: r) } }
        _ = Array(raw.prefix(10)).withUnsafeBytes { r in #expect(throws: BlobRecord.RecordError.truncated) { try BlobRecord(decoding: r) } }
        var wrongCount = raw
        wrongCount[16] = 2
        _ = wrongCount.withUnsafeBytes { r in #expect(throws: BlobRecord.RecordError.countMismatch) { try BlobRecord(decoding: r) } }
    }
}
