import ArchiveLMDB
import CAS
import Foundation
import Ground
@testable import Indexer
import Query
import TestLiterals
import Testing

/// `query` over a real ingest of a capture-synth dump: every answer equals the one computed
/// from expected.json, the kept counts agree with a recount, and re-ingesting changes nothing.
@Suite struct QueryEndToEndTests {
    /// The part of capture-synth's expected.json this test reads.
    struct Expected: Decodable {
        struct Capture: Decodable {
            struct Sidecar: Decodable { let sink: String; let state: String }
            let deliveryFile: String
            let kind: String
            let keyFingerprint: String?
            let trust: String?
            let integrity: String
            let captureTime: String?
            let sidecars: [Sidecar]
        }
        let signerRoot: String
        let tsaRoot: String
        let captures: [Capture]
    }

    /// capture-synth next to the test bundle or in .build/debug.
    static func synthPath() -> String? {
        guard let cli = binaryPath() else { return nil }
        let p = URL(fileURLWithPath: cli).deletingLastPathComponent().appendingPathComponent("capture-synth").path
        return FileManager.default.isExecutableFile(atPath: p) ? p : nil
    }

    /// Runs capture-synth with `arguments` (stdout discarded); its exit status.
    static func synthesize(_ synth: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: synth)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    static let faults = ["media-flip", "signature-flip", "unsigned", "truncated", "garbage-manifest", "sidecar-changed",
                         "sidecar-missing", "pre-0.25", "sink-failed", "sink-disabled", "ring-frame-removed", "symlink-escape"]

    @Test func answersEqualExpectedJSON() throws {
        let synth = try #require(Self.synthPath(), "capture-synth must be built (swift build)")
        let s = Scratch()
        let dump = s.path + "/dump"
        #expect(try Self.synthesize(synth, [dump, "--stills", "3", "--videos", "0", "--seed", "5", "--jobs", "2",
                                            "--faults", Self.faults.joined(separator: ",")]) == 0)
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: dump + "/expected.json")))
        #expect(expected.captures.count == 3 + Self.faults.count)

        let a = s.archive
        #expect(cli(["init", "--archive", a]).code == .success)
        #expect(cli(["trust", "add", dump + "/" + expected.signerRoot, "--archive", a]).code == .success)
        #expect(cli(["trust", "add", dump + "/" + expected.tsaRoot, "--tsa", "--archive", a]).code == .success)
        let ingest = cli(["ingest", dump, "--archive", a, "--json", "--jobs", "2"])
        #expect(ingest.code == .failure)   // the faults need attention
        // Delivery file → record ID, from ingest's own report.
        var recordOf: [String: String] = [:]
        for line in ingest.out.split(separator: "\n") {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard o?["type"] as? String == "capture", let path = o?["sourcePath"] as? String, let id = o?["recordId"] as? String else { continue }
            recordOf[String(path.split(separator: "/", maxSplits: 1).last ?? "")] = id
        }
        let records: [(id: String, c: Expected.Capture)] = try expected.captures.map { c in
            (try #require(recordOf[c.deliveryFile], "\(c.deliveryFile) not ingested"), c)
        }
        #expect(Set(records.map(\.id)).count == records.count)

        func answer(_ args: [String]) throws -> (matches: [String], indeterminate: [String]) {
            let r = cli(["query", "--archive", a, "--format", "json"] + args)
            #expect(r.code == .success, "\(args): \(r.err)")
            let rows = try r.out.split(separator: "\n").map { try JSONDecoder().decode(RecordRow.self, from: Data($0.utf8)) }
            let count = cli(["query", "--archive", a, "--count", "--format", "csv"] + args).out
            let m = rows.filter { !$0.indeterminate }.map(\.recordId.hex), i = rows.filter(\.indeterminate).map(\.recordId.hex)
            #expect(count == "matches,indeterminate\n\(m.count),\(i.count)\n", "\(args)")
            return (m, i)
        }
        func want(_ keep: (Expected.Capture) -> Bool) -> [String] { records.filter { keep($0.c) }.map(\.id).sorted() }

        var asked = 0, nonEmpty = 0
        func check(_ args: [String], _ matches: [String], _ indeterminate: [String] = []) throws {
            let got = try answer(args)
            #expect(got.matches == matches, "\(args)")
            #expect(got.indeterminate == indeterminate, "\(args)")
            asked += 1
            if !matches.isEmpty { nonEmpty += 1 }
        }
        for state in ["verified", "mismatch", "missing", "uncommitted", "failed", "never-recorded"] {
            try check(["--sidecar", state], want { $0.sidecars.contains { $0.state == state } })
            for sink in ["audio", "sensors", "ring", "depth"] {
                try check(["--sidecar", state, "--sink", sink], want { $0.sidecars.contains { $0.state == state && $0.sink == sink } })
            }
        }
        for sink in ["audio", "sensors", "ring", "depth"] { try check(["--sink", sink], want { $0.sidecars.contains { $0.sink == sink } }) }
        for kind in ["still", "video"] { try check(["--kind", kind], want { $0.kind == kind }) }
        for trust in ["trusted", "untrusted"] { try check(["--trust", trust], want { $0.trust == trust }) }
        for state in ["intact", "tampered", "unsigned", "malformed"] { try check(["--state", state], want { $0.integrity == state }) }
        for fp in Set(expected.captures.compactMap(\.keyFingerprint)) {
            try check(["--key", fp], want { $0.keyFingerprint == fp })
            try check(["--key", String(fp.prefix(6)).uppercased(), "--sidecar", "verified"],
                      want { $0.keyFingerprint?.hasPrefix(String(fp.prefix(6))) == true && $0.sidecars.contains { $0.state == "verified" } })
        }
        for t in Set(expected.captures.compactMap(\.captureTime)) {
            for n in [4, 7, 10, 13, 16] where n <= t.count {
                let prefix = String(t.prefix(n))
                try check(["--time", prefix], want { $0.captureTime?.hasPrefix(prefix) == true },
                          want { c in c.captureTime.map { prefix.hasPrefix($0) && $0 != prefix && !$0.hasPrefix(prefix) } ?? false })
            }
        }
        #expect(asked > 60)
        #expect(nonEmpty > 25)

        let store = try ContentStore.open(at: a)
        let index = try RecordIndex(environment: store.environment)
        #expect(try index.checkCounters() == [])
        // Re-ingest: nothing new, the same answers.
        let before = try index.query(RecordFilter(sidecarState: "verified"))
        _ = cli(["ingest", dump, "--archive", a, "--jobs", "2"])
        #expect(try index.count == records.count)
        #expect(try index.query(RecordFilter(sidecarState: "verified")) == before)
        #expect(try index.checkCounters() == [])
    }
}
