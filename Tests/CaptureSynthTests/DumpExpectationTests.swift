import CaptureFormat
import Foundation
import Synthesis
import Testing

/// A small dump with every fault, read back by our own readers and compared with expected.json.
@Suite(.serialized) struct DumpExpectationTests {
    static let dump: Result<(String, ExpectedDump), Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("capture-synth-\(getpid())-all").path
        try? FileManager.default.removeItem(atPath: dir)
        let options = SynthOptions(stills: 6, videos: 0, seed: 7, videoSeconds: 3, faults: SynthFault.allCases.filter { !$0.isVideo })
        return (dir, try DumpSynthesizer(options: options).write(to: dir))
    }

    @Test func everyCaptureReadsAsExpected() throws {
        let (dir, expected) = try Self.dump.get()
        let checker = try DumpChecker(root: dir)
        #expect(checker.expected == expected, "expected.json is what write(to:) returned")
        var problems: [String] = []
        for c in expected.captures { problems += checker.check(c) }
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) disagreements:\n" + problems.joined(separator: "\n")))
    }

    @Test func everyFaultHasItsCapture() throws {
        let (_, expected) = try Self.dump.get()
        for f in SynthFault.allCases where !f.isVideo {
            #expect(expected.captures.contains { $0.faults == [f.name] }, "\(f.name)")
        }
        #expect(expected.captures.filter { $0.faults.isEmpty }.count == 7) // 6 stills + the rewrapped original
        let clean = expected.captures.filter { $0.faults.isEmpty }
        #expect(Set(clean.map(\.integrity)) == ["intact"])
        #expect(Set(clean.compactMap(\.trust)) == ["trusted", "untrusted"], "CA and self-signed devices both appear")
        #expect(Set(clean.compactMap(\.keyFingerprint)).count >= 3)
    }
}
