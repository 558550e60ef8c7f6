import ArchiveLMDB
import CAS
import Crypto
import Custody
import Foundation
import Ground
import Ingest
import LMDB
import Synthesis
import TestLiterals
import Testing
import Verify

/// Capture-synth dumps made in-process, once per test run, and fresh archives.
enum DumpFixture {
    /// Every fault a still-only dump can carry (video faults need videos).
    static let stillFaults = SynthFault.allCases.filter { !$0.name.hasPrefix("video") }

    struct Dump: Sendable {
        let root: String
        let expected: ExpectedDump
    }

    /// A dump with every still fault (seed 7), and a copy of it whose every delivery file has
    /// 16 bytes appended: the same claims as other bytes (re-wrapped copies).
    static let allFaults: Result<(Dump, Dump), any Error> = Result {
        let base = scratch("dumps")
        let options = SynthOptions(stills: 2, videos: 0, seed: 7, faults: stillFaults, concurrency: 2,
                                   stillWidth: 320, stillHeight: 240)
        let a = base + "/first", b = base + "/second"
        let expected = try DumpSynthesizer(options: options).write(to: a)
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = ["-a", a, b]
        try cp.run()
        cp.waitUntilExit()
        for c in expected.captures {
            let h = try FileHandle(forWritingTo: URL(fileURLWithPath: b + "/" + c.deliveryFile))
            try h.seekToEnd()
            try h.write(contentsOf: Data(repeating: 0x5A, count: 16))
            try h.close()
        }
        return (Dump(root: a, expected: expected), Dump(root: b, expected: expected))
    }

    /// A small dump for the kill trials.
    static let small: Result<Dump, any Error> = Result {
        let root = scratch("small") + "/dump"
        let options = SynthOptions(stills: 3, videos: 0, seed: 11,
                                   faults: [.rewrapped, .sidecarMissing, .unsigned, .garbageManifest, .signatureFlip],
                                   concurrency: 2, stillWidth: 320, stillHeight: 240)
        return Dump(root: root, expected: try DumpSynthesizer(options: options).write(to: root))
    }

    /// Every scratch folder of this test process sits under one folder removed at exit.
    static let root: String = {
        let p = NSTemporaryDirectory() + "ingest-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: DumpFixture.root) }
        return p
    }()

    static func scratch(_ name: String) -> String {
        let p = root + "/\(name)-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    /// A new archive (small initial map: growth is exercised).
    static func archive() throws -> LMDBArchive {
        var o = ContentStore.Options()
        o.environment.mapSize = 4 << 20
        return try LMDBArchive(store: ContentStore.create(at: scratch("archive") + "/archive", options: o))
    }

    /// A fresh dump of `stills` 320×240 stills (with `faults`) under a scratch folder named
    /// `name`, and a verifier trusting its PKI (media measured only when `media`).
    static func synthesized(_ name: String, stills: Int, seed: UInt64, faults: [SynthFault] = [],
                            media: Bool = false) throws -> (root: String, expected: ExpectedDump, verifier: CaptureVerifier) {
        let root = scratch(name) + "/dump"
        let expected = try DumpSynthesizer(options: SynthOptions(stills: stills, videos: 0, seed: seed, faults: faults, concurrency: 2,
                                                                 stillWidth: 320, stillHeight: 240)).write(to: root)
        var verifier = CaptureVerifier(signerAnchors: try TrustAnchors(pemFile: root + "/" + expected.signerRoot),
                                       tsaAnchors: try TrustAnchors(pemFile: root + "/" + expected.tsaRoot))
        verifier.measuresMedia = media
        return (root, expected, verifier)
    }

    static let agent = CustodyAgent(operator: "test", tool: .init(name: "exhibit-archive", version: "test"), host: "test")

    /// `reverify` of every record of `archive`, each result paired with the report ingest gave
    /// for the same delivery bytes (`atIngest`: record → reports); a result without one (or
    /// without a report) is recorded as an issue. Also returns how many results there were.
    static func reverifyPairs(_ archive: LMDBArchive, _ verifier: CaptureVerifier, atIngest: [ContentID: [CaptureReport]])
        throws -> (pairs: [(first: CaptureReport, again: CaptureReport)], seen: Int) {
        var pairs: [(first: CaptureReport, again: CaptureReport)] = []
        var seen = 0
        try Reverifier(archive: try archive.archive(), verifier: verifier, agent: agent).run(nil) { r in
            seen += 1
            guard let again = r.report, let first = atIngest[r.recordId]?.first(where: { $0.sha256 == again.sha256 }) else {
                Issue.record("record \(r.recordId.hex): no report at ingest for what reverify read (\(r.error ?? "no error"))")
                return
            }
            pairs.append((first, again))
        }
        return (pairs, seen)
    }
}
