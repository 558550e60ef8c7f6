import Foundation
import Testing
@testable import Synthesis

/// capture-synth writes its files in pieces: Foundation's `Data.write(to:)` on Linux repeated a
/// file's beginning after the kernel's 0x7ffff000-byte partial write, so a 4.3 GB video was
/// corrupt at 2 GiB (seen by bench/ingest.sh --big-video; both verifiers said the BMFF hash
/// mismatched). Writing 2 GiB in a unit test is too heavy; this pins the piecewise loop with
/// pieces much smaller than the file, including a last short piece and an empty file.
@Suite struct SynthFileWriteTests {
    @Test(arguments: [(0, 7), (1, 7), (7, 7), (100, 7), (1000, 1), (65_537, 4096)])
    func piecesJoinToTheBytes(count: Int, piece: Int) throws {
        let dir = NSTemporaryDirectory() + "synth-write-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let path = dir + "/f"
        try Data(repeating: 0xEE, count: count + 50).write(to: URL(fileURLWithPath: path))  // longer: truncated
        try SynthContext.write(bytes, to: path, piece: piece)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
    }
}
