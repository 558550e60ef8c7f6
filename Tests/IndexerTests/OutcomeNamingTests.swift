import Foundation
import Ground
@testable import Indexer
import Testing

/// Issue 12, what remained after session 4: (f) a known capture found under a new source
/// path is `path-added` (the path and one ingestion event are written), never `present`
/// (nothing written), in the text and JSON outputs and the summary counts; (e) one record
/// whose stored bytes no longer match does not stop `reverify`: it is refused by name
/// (`index.record.damaged`), the others are re-verified, and the exit is non-zero.
@Suite struct OutcomeNamingTests {
    func dump(_ s: Scratch, seed: String, faults: String) throws -> String {
        let synth = try #require(QueryEndToEndTests.synthPath(), "capture-synth must be built (swift build)")
        let dump = s.path + "/dump"
        #expect(try QueryEndToEndTests.synthesize(synth, [dump, "--stills", "3", "--videos", "0", "--seed", seed, "--jobs", "2",
                                                          "--faults", faults]) == 0)
        return dump
    }

    @Test func aKnownCaptureUnderANewPathIsPathAddedInTextAndJSON() throws {
        let s = Scratch()
        let dump = try dump(s, seed: "31", faults: "")
        let a = s.archive
        #expect(cli(["init", "--archive", a]).code == .success)
        let first = cli(["ingest", dump, "--archive", a, "--json", "--jobs", "2"])
        let captures = try jsonLines(first.out).filter { $0["type"] as? String == "capture" }
        #expect(captures.count == 3 && captures.allSatisfy { $0["outcome"] as? String == "new" })
        let events = try jsonLines(cli(["log", "--json", "--archive", a]).out).count

        // The same dump copied elsewhere: the records gain a source path each.
        let copy = s.path + "/elsewhere"
        try FileManager.default.copyItem(atPath: dump, toPath: copy)
        let moved = cli(["ingest", copy, "--archive", a, "--json", "--jobs", "2"])
        let rows = try jsonLines(moved.out)
        let items = rows.filter { $0["type"] as? String == "capture" }
        #expect(items.count == 3 && items.allSatisfy { $0["outcome"] as? String == "path-added" && $0["newBlobs"] as? Int == 0 })
        let outcomes = try #require(rows.last?["outcomes"] as? [String: Int])
        #expect(outcomes["path-added"] == 3 && outcomes["present"] == 0 && outcomes["new"] == 0)
        #expect(try jsonLines(cli(["log", "--json", "--archive", a]).out).count == events + 3, "one ingestion event per path added")
        for item in items {
            let id = try #require(item["recordId"] as? String)
            #expect(cli(["show", id, "--archive", a]).out.contains(try #require(item["sourcePath"] as? String)))
        }

        // Once more: nothing new, nothing written — `present` (text form this time).
        let again = cli(["ingest", copy, "--archive", a, "--jobs", "2"])
        let lines = again.out.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("present ") }.count == 3)
        #expect(lines.contains { $0.hasPrefix("ingest: 3 captures: new 0, variant 0, present 3, failed 0, path-added 0") }, "\(again.out)")
        #expect(try jsonLines(cli(["log", "--json", "--archive", a]).out).count == events + 3)

        // A third place, text form: the line and the summary name `path-added`.
        let third = s.path + "/third"
        try FileManager.default.copyItem(atPath: dump, toPath: third)
        let text = cli(["ingest", third, "--archive", a, "--jobs", "2"]).out.split(separator: "\n")
        #expect(text.filter { $0.hasPrefix("path-added ") }.count == 3)
        #expect(text.contains { $0.hasPrefix("ingest: 3 captures: new 0, variant 0, present 0, failed 0, path-added 3") })
    }

    @Test func reverifyRefusesADamagedRecordByNameAndGoesOn() throws {
        let s = Scratch()
        let dump = try dump(s, seed: "29", faults: "sidecar-changed")
        let a = s.archive
        #expect(cli(["init", "--archive", a]).code == .success)
        _ = cli(["ingest", dump, "--archive", a, "--jobs", "2"])
        let all = try jsonLines(cli(["query", "--format", "json", "--archive", a]).out).compactMap { $0["recordId"] as? String }
        #expect(all.count >= 3)
        let damaged = try #require(try jsonLines(cli(["query", "--sidecar", "mismatch", "--format", "json", "--archive", a]).out)
            .first?["recordId"] as? String)
        // One byte of that record's stored report, `mismatch` → `verified` (RecordIntegrityTests' edit).
        #expect(try editMismatchToVerified(inArchive: a) >= 1)

        let run = cli(["reverify", "--json", "--archive", a])
        #expect(run.code == .failure)
        #expect(run.err.contains(StatusCode.indexRecordDamaged) && run.err.contains(damaged))
        let rows = try jsonLines(run.out)
        let reverified = Set(rows.filter { $0["type"] as? String == "record" }.compactMap { $0["recordId"] as? String })
        #expect(reverified == Set(all.filter { $0 != damaged }), "every other record is re-verified")
        let summary = try #require(rows.last)
        #expect(summary["type"] as? String == "summary" && summary["records"] as? Int == all.count)
        #expect(summary["failed"] as? Int == 1 && summary["refused"] as? [String] == [damaged])

        let text = cli(["reverify", "--archive", a])
        #expect(text.code == .failure)
        #expect(text.out.contains("not reverified: \(damaged) refused (\(StatusCode.indexRecordDamaged)"))
        #expect(text.out.contains("reverify: \(all.count) records, "))
    }
}
