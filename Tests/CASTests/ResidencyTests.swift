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

    @Test func readingABlobDoesNotLeaveItResident() throws {
        let dir = TempDir()
        var options = ContentStore.Options()
        options.environment.mapSize = 1 << 30
        let store = try ContentStore.create(at: dir.path + "/archive", options: options)
        let bytes = patternBytes(96 << 20, seed: 5)
        var source = ByteReader(MemoryByteSource(bytes))
        let id = try store.put(from: &source).id
        let data = dir.path + "/archive/data.mdb"

        let before = try Self.residentKiB(of: data)
        var streamed = 0
        try store.read(id) { streamed += $0.count }
        let after = try Self.residentKiB(of: data)
        #expect(streamed == bytes.count)
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
}
