import CAS
import Foundation
import Ground
@testable import Indexer
import Testing

/// One byte of a stored report edited in `data.mdb` (issue 12, item 4): `mismatch` →
/// `verified`, same length. `audit` names the record, `show` and `export` refuse it, `query`
/// lists the others and names it.
@Suite struct RecordIntegrityTests {
    @Test func editedReportByteIsNamedByAuditAndRefusedByShowQueryExport() throws {
        let synth = try #require(QueryEndToEndTests.synthPath(), "capture-synth must be built (swift build)")
        let s = Scratch()
        let dump = s.path + "/dump"
        #expect(try QueryEndToEndTests.synthesize(synth, [dump, "--stills", "2", "--videos", "0", "--seed", "29", "--jobs", "2",
                                                          "--faults", "sidecar-changed"]) == 0)
        let a = s.archive
        #expect(cli(["init", "--archive", a]).code == .success)
        _ = cli(["ingest", dump, "--archive", a, "--jobs", "2"])
        let all = try jsonLines(cli(["query", "--format", "json", "--archive", a]).out).compactMap { $0["recordId"] as? String }
        #expect(all.count == 3)
        let damaged = try #require(try jsonLines(cli(["query", "--sidecar", "mismatch", "--format", "json", "--archive", a]).out)
            .first?["recordId"] as? String)
        #expect(cli(["audit", "--archive", a]).code == .success)
        // The index entry names the report by its SHA-256, and the ingestion event commits to it.
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(cli(["show", damaged, "--json", "--archive", a]).out.utf8)) as? [String: Any])
        let reportId = try #require((shown["record"] as? [String: Any])?["reportId"] as? String)
        let ingestion = try jsonLines(cli(["log", "--record", damaged, "--json", "--archive", a]).out).first { $0["eventType"] as? String == "ingestion" }
        let objects = try #require(ingestion?["objects"] as? [[String: String]])
        #expect(objects.contains { $0["kind"] == "report" && $0["id"] == reportId })
        #expect(cli(["log", "--verify", "--archive", a]).code == .success)

        // The edit: every `"state":"mismatch"` in the file (the one stored report that has it).
        #expect(try editMismatchToVerified(inArchive: a) >= 1)

        let audit = cli(["audit", "--json", "--archive", a])
        #expect(audit.code == .failure)
        let named = try jsonLines(audit.out).filter { $0["type"] as? String == "recordDamage" }
        #expect(named.compactMap { $0["recordId"] as? String } == [damaged])
        #expect(named.first?["code"] as? String == StatusCode.indexRecordDamaged)
        #expect(try jsonLines(audit.out).last?["recordsDamaged"] as? Int == 1)

        let show = cli(["show", damaged, "--archive", a])
        #expect(show.code != .success && show.err.contains(StatusCode.indexRecordDamaged) && show.err.contains(damaged))
        #expect(!show.out.contains("verified"))
        for other in all where other != damaged { #expect(cli(["show", other, "--archive", a]).code == .success) }

        let query = cli(["query", "--format", "json", "--archive", a])
        #expect(query.code == .failure && query.err.contains(damaged) && query.err.contains(StatusCode.indexRecordDamaged))
        #expect(Set(try jsonLines(query.out).compactMap { $0["recordId"] as? String }) == Set(all.filter { $0 != damaged }))

        let bag = s.path + "/bag"
        let export = cli(["export", "--query", "--out", bag, "--json", "--archive", a])
        #expect(export.code == .failure && export.err.contains(damaged))
        let summary = try #require(try jsonLines(export.out).last)
        #expect(summary["records"] as? Int == all.count - 1 && summary["refused"] as? [String] == [damaged])
        #expect(!FileManager.default.fileExists(atPath: bag + "/data/" + damaged))
        let alone = cli(["export", damaged, "--out", s.path + "/bag2", "--archive", a])
        #expect(alone.code != .success && alone.err.contains(StatusCode.indexRecordDamaged))
    }
}

/// Replaces every `"state":"mismatch"` in the archive's `data.mdb` by `"state":"verified"`
/// (same length): one stored report edited in place, as someone with write access would.
/// Returns the number of edits.
func editMismatchToVerified(inArchive archive: String) throws -> Int {
    let file = archive + "/data.mdb"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
    let from = Array("\"state\":\"mismatch\"".utf8), to = Array("\"state\":\"verified\"".utf8)
    var edits = 0
    var i = 0
    while i + from.count <= bytes.count {
        if bytes[i] == from[0] && Array(bytes[i..<i + from.count]) == from {
            bytes.replaceSubrange(i..<i + from.count, with: to)
            edits += 1
        }
        i += 1
    }
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return edits
}

/// A blob a record names, deleted from the store behind the archive's back (what a `gc` gone
/// wrong would leave): `audit` names the record, the blob and its role with
/// `index.record.blobMissing`, counts the record once, and exits 1; the other records are clean.
@Suite struct RecordBlobPresenceTests {
    @Test func blobARecordNamesDeletedIsNamedByAudit() throws {
        let synth = try #require(QueryEndToEndTests.synthPath(), "capture-synth must be built (swift build)")
        let s = Scratch()
        let dump = s.path + "/dump"
        #expect(try QueryEndToEndTests.synthesize(synth, [dump, "--stills", "2", "--videos", "0", "--seed", "41", "--jobs", "2"]) == 0)
        let a = s.archive
        #expect(cli(["init", "--archive", a]).code == .success)
        #expect(cli(["ingest", dump, "--archive", a, "--jobs", "2"]).code == .success)
        let clean = cli(["audit", "--json", "--archive", a])
        #expect(clean.code == .success)
        #expect(try jsonLines(clean.out).filter { $0["type"] as? String == "recordDamage" }.isEmpty)

        let shown = try jsonLines(cli(["query", "--format", "json", "--archive", a]).out)
        let victim = try #require(shown.first?["recordId"] as? String)
        let show = try #require(try JSONSerialization.jsonObject(with: Data(cli(["show", victim, "--json", "--archive", a]).out.utf8)) as? [String: Any])
        let record = try #require(show["record"] as? [String: Any])
        let files = try #require(record["files"] as? [[String: Any]])
        let audio = try #require(files.first { ($0["role"] as? String) == "audio" })
        let audioBlob = try #require(audio["blobId"] as? String)
        let variant = try #require((record["variants"] as? [[String: Any]])?.first?["blobId"] as? String)
        do {
            let store = try ContentStore.open(at: a)
            #expect(try store.deleteBlob(try #require(ContentID(hex: audioBlob))))
            #expect(try store.deleteBlob(try #require(ContentID(hex: variant))))
        }

        let audit = cli(["audit", "--json", "--archive", a])
        #expect(audit.code == .failure)
        let named = try jsonLines(audit.out).filter { $0["type"] as? String == "recordDamage" }
        #expect(named.count == 2)
        #expect(named.allSatisfy { $0["recordId"] as? String == victim && $0["code"] as? String == StatusCode.indexRecordBlobMissing })
        let details = named.compactMap { $0["detail"] as? String }
        #expect(details.contains { $0.contains(audioBlob) && $0.contains("(audio \(audio["relativePath"] as? String ?? "?"))") })
        #expect(details.contains { $0.contains(variant) && $0.contains("(variant)") })
        #expect(try jsonLines(audit.out).last?["recordsDamaged"] as? Int == 1)
        let text = cli(["audit", "--archive", a])
        #expect(text.code == .failure)
        #expect(text.out.contains("damaged record \(victim) report "))
        #expect(text.out.contains("index.record.blobMissing: record \(victim) names blob \(variant) (variant), which the archive does not hold"))
        #expect(text.out.hasSuffix("records, 1 damaged\n"))
        // The fixity event names the record once.
        let fixity = try jsonLines(cli(["log", "--json", "--archive", a]).out).last { $0["eventType"] as? String == "fixity check" }
        let objects = try #require(fixity?["objects"] as? [[String: String]])
        #expect(objects.filter { $0["id"] == victim }.count == 1)
    }
}
