import Foundation
import Ground
@testable import Indexer
import Query
import Testing

/// A second copy of a known capture whose `evidence/audio.caf` differs (issue 12, item 3), as
/// a user meets it: ingested as a `variant` (not `present`), the mismatch stored as a sidecar
/// variant and found by `query --sidecar mismatch`, the record exported with both copies of the
/// file, and `reverify` changing (and counting) nothing.
@Suite struct SecondCopyTests {
    struct Expected: Decodable {
        struct Capture: Decodable { let folder: String; let deliveryFile: String; let files: [String] }
        let signerRoot: String
        let tsaRoot: String
        let captures: [Capture]
    }

    @Test func changedSidecarInASecondCopyIsAVariantFoundExportedAndReverified() throws {
        let synth = try #require(QueryEndToEndTests.synthPath(), "capture-synth must be built (swift build)")
        let s = Scratch()
        let dump = s.path + "/dump"
        #expect(try QueryEndToEndTests.synthesize(synth, [dump, "--stills", "2", "--videos", "0", "--seed", "23", "--jobs", "2", "--faults", ""]) == 0)
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: dump + "/expected.json")))
        let a = s.archive
        #expect(cli(["init", "--archive", a]).code == .success)
        #expect(cli(["trust", "add", dump + "/" + expected.signerRoot, "--archive", a]).code == .success)
        #expect(cli(["trust", "add", dump + "/" + expected.tsaRoot, "--tsa", "--archive", a]).code == .success)
        let first = cli(["ingest", dump, "--archive", a, "--json", "--jobs", "2"])
        #expect(first.code == .success, "\(first.err)")

        // The copy: one capture folder in another dump, its audio changed (same length).
        let capture = try #require(expected.captures.first { $0.files.contains { $0.hasSuffix("evidence/audio.caf") } })
        let copyRoot = s.path + "/copy"
        try FileManager.default.createDirectory(atPath: copyRoot, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dump + "/" + capture.folder, toPath: copyRoot + "/" + capture.folder.split(separator: "/").last!)
        let audio = copyRoot + "/" + capture.folder.split(separator: "/").last! + "/evidence/audio.caf"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: audio))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: audio))

        let second = cli(["ingest", copyRoot, "--archive", a, "--json"])
        #expect(second.code == .failure)   // the mismatch needs attention
        let item = try #require(try jsonLines(second.out).first { $0["type"] as? String == "capture" })
        #expect(item["outcome"] as? String == "variant")
        let id = try #require(item["recordId"] as? String)

        // The record: audio rolled up to mismatch, the copy's state kept as a sidecar variant.
        let show = cli(["show", id, "--json", "--archive", a])
        #expect(show.code == .success, "\(show.err)")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any])
        let record = try #require(shown["record"] as? [String: Any])
        #expect((record["sidecars"] as? [String: String])?["audio"] == "mismatch")
        let variants = try #require(record["sidecarVariants"] as? [[String: Any]])
        #expect(variants.count == 1 && variants.first?["state"] as? String == "mismatch" && variants.first?["sink"] as? String == "audio")

        // Indexed: the auditor's query finds it.
        let q = cli(["query", "--sidecar", "mismatch", "--format", "json", "--archive", a])
        #expect(q.code == .success)
        #expect(try jsonLines(q.out).compactMap { $0["recordId"] as? String } == [id])

        // Ingesting the same copy again writes nothing: `present`.
        let third = cli(["ingest", copyRoot, "--archive", a, "--json"])
        #expect(try jsonLines(third.out).first { $0["type"] as? String == "capture" }?["outcome"] as? String == "present")

        // Exported with both copies of the file: no pathCollision.
        let bag = s.path + "/bag"
        let export = cli(["export", id, "--out", bag, "--archive", a])
        #expect(export.code == .success, "\(export.err)")
        let copies = [bag + "/data/\(id)/evidence/audio.caf", bag + "/data/\(id)/sidecar-variant-2/evidence/audio.caf"]
        #expect(copies.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(try Data(contentsOf: URL(fileURLWithPath: copies[1])) == bytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copies[0])) != bytes)

        // Reverify from the stored bytes: the first copy verifies again, the record keeps the
        // variant's mismatch, and the count says so (nothing changed).
        let reverify = cli(["reverify", "--json", "--archive", a])
        let rows = try jsonLines(reverify.out)
        let row = try #require(rows.first { $0["type"] as? String == "record" && $0["recordId"] as? String == id })
        #expect(row["changed"] as? Bool == false && row["sidecars"] as? String == row["previousSidecars"] as? String)
        #expect(rows.first { $0["type"] as? String == "summary" }?["changed"] as? Int == 0)
        let after = cli(["show", id, "--json", "--archive", a])
        let afterRecord = (try JSONSerialization.jsonObject(with: Data(after.out.utf8)) as? [String: Any])?["record"] as? [String: Any]
        #expect((afterRecord?["sidecars"] as? [String: String])?["audio"] == "mismatch")
    }
}

/// The JSON objects of a command's output, one a line.
func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}
