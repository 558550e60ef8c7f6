import CaptureFormat
import Foundation
import Ground
import Synthesis
import TestLiterals
import Testing

/// A small dump with every fault, read back by our own readers and compared with expected.json.
@Suite(.serialized) struct DumpExpectationTests {
    /// `--stills 6 --videos 1 --video-seconds 2 --faults all --seed 7`, made once per test process.
    static let dump: Result<(String, ExpectedDump), Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("capture-synth-\(getpid())-all").path
        try? FileManager.default.removeItem(atPath: dir)
        let options = SynthOptions(stills: 6, videos: 1, seed: 7, videoSeconds: 2, faults: SynthFault.allCases)
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
        for f in SynthFault.allCases {
            #expect(expected.captures.contains { $0.faults == [f.name] }, "\(f.name)")
        }
        #expect(expected.captures.filter { $0.faults.isEmpty }.count == 8) // 6 stills, 1 video, the rewrapped original
        #expect(expected.captures.filter { $0.kind == "video" }.count == 3)
        let clean = expected.captures.filter { $0.faults.isEmpty }
        #expect(Set(clean.map(\.integrity)) == ["intact"])
        #expect(Set(clean.compactMap(\.trust)) == ["trusted", "untrusted"], "CA and self-signed devices both appear")
        #expect(Set(clean.compactMap(\.keyFingerprint)).count >= 3)
    }
}
