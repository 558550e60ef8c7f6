import CAS
import Foundation
import Ground
import LMDB
import TestLiterals
import Testing

/// Streaming a blob out of the store leaves none of it resident in the process: each chunk's
/// map pages are released once the sink has consumed them (`Transaction.releasePages`).
@Suite(.serialized) struct ResidencyTests {
    /// Resident kilobytes of this process's mappings of `file` (from /proc/self/smaps).
    static func residentKiB(of file: String) throws -> Int {
        // /proc files state size 0: read to the end, not by the stated size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { throw CocoaError(.fileReadNoPermission) }
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inFile = false
        var total = 0
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") && line.split(separator: " ").count >= 5 {
                inFile = line.hasSuffix(file)
            } else if inFile, line.hasPrefix("Rss:") {
                total += Int(line.split(separator: " ")[1]) ?? 0
            }
        }
        return total
    }

    /// A store in `dir` holding one 96 MiB blob of pattern bytes: the store, the blob's ID, its size.
    static func storeWithBlob(in dir: TempDir, seed: UInt64) throws -> (ContentStore, ContentID, Int) {
        var options = ContentStore.Options()
        options.environment.mapSize = 1 << 30
        let store = try ContentStore.create(at: dir.path + "/archive", options: options)
        let bytes = patternBytes(96 << 20, seed: seed)
        var source = ByteReader(MemoryByteSource(bytes))
        return (store, try store.put(from: &source).id, bytes.count)
    }

    @Test func readingABlobDoesNotLeaveItResident() throws {
        let dir = TempDir()
        let (store, id, count) = try Self.storeWithBlob(in: dir, seed: 5)
        let data = dir.path + "/archive/data.mdb"

        let before = try Self.residentKiB(of: data)
        var streamed = 0
        try store.read(id) { streamed += $0.count }
        let after = try Self.residentKiB(of: data)
        #expect(streamed == count)
        #expect(after - before < 16 << 10, "resident map grew by \(after - before) KiB for a 96 MiB blob")

        // Control: the same chunks read from the map without releasing stay resident, so the
        // measurement above would have seen residency had there been some.
        let chunks = try store.environment.database("cas.chunks")
        var touched = 0
        try store.environment.read { txn in
            let cursor = try txn.cursor(chunks)
            var entry = try cursor.first()
            while let (_, value) = entry {
                for offset in stride(from: 0, to: value.count, by: 4096) { touched &+= Int(value[offset]) }
                entry = try cursor.next()
            }
            let control = try Self.residentKiB(of: data)
            #expect(control - after > 64 << 10, "control read should leave the chunks mapped (\(touched))")
        }
    }

    /// What reads leave mapped beside the values they release (the page-cache folio around each fault, the
    /// B-tree pages) is dropped every `Environment.releaseEvery` streamed bytes
    /// (`Environment+Residency`), and dropping loses nothing: a value borrowed in the open
    /// transaction still reads the same bytes, and the blob still reads back whole.
    @Test func droppingTheMapKeepsEveryByte() throws {
        let dir = TempDir()
        let (store, id, count) = try Self.storeWithBlob(in: dir, seed: 6)
        let data = dir.path + "/archive/data.mdb"
        let chunks = try store.environment.database("cas.chunks")
        try store.environment.read { txn in
            let cursor = try txn.cursor(chunks)
            var sums: [Int] = []
            var values: [UnsafeRawBufferPointer] = []
            var entry = try cursor.first()
            while let (_, value) = entry {
                sums.append(value.reduce(0) { $0 &+ Int($1) })  // every page of it mapped
                values.append(value)
                entry = try cursor.next()
            }
            let mapped = try Self.residentKiB(of: data)
            #expect(mapped > 64 << 10, "the chunks read should be mapped (\(mapped) KiB)")
            store.environment.noteStreamed(Environment.releaseEvery)  // reaches the step: drops the map
            let dropped = try Self.residentKiB(of: data)
            #expect(dropped < 1 << 10, "\(dropped) KiB of the map still resident after the drop")
            // The borrowed values read the same bytes again (mapped anew from the page cache).
            #expect(values.map { $0.reduce(0) { $0 &+ Int($1) } } == sums)
        }
        var streamed = 0
        try store.read(id, verify: true) { streamed += $0.count }
        #expect(streamed == count)
    }
}
