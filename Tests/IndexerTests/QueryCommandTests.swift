import ArchiveLMDB
import CAS
import Custody
import Foundation
import Ground
@testable import Indexer
import Ingest
import Query
import TestLiterals
import Testing

/// `query` and `show` against a real archive: records put through `RecordIndex`, custody
/// events through `CustodyLog`, answers read back through the CLI's own output formats.
@Suite struct QueryCommandTests {
    static func id(_ n: Int) -> String {
        String(repeating: String(n, radix: 16), count: 64).prefix(64).description
    }

    /// `id(n)` as a content ID.
    static func cid(_ n: Int) -> ContentID { ContentID(hex: id(n))! }

    static func rec(_ n: Int, integrity: Integrity, time: String?, sidecars: [SidecarSink: SidecarState], kind: MediaKind = "still",
                    trust: Trust? = "trusted", key: ContentID? = ContentID(hex: String(repeating: "ab", count: 32))) -> IndexedRecord {
        IndexedRecord(recordId: cid(n), kind: kind, integrity: integrity, trust: trust, keyFingerprint: key,
                      captureTime: time, tsaTime: "2026-11-30T14:06:00Z", ingestTime: "2026-12-01T01:02:03Z",
                      failureCodes: integrity == "tampered" ? ["assertion.dataHash.mismatch"] : [], sidecars: sidecars,
                      variants: [.init(blobId: cid(n + 100), size: 1234, sourcePaths: ["dump1/DCIM/\(n).jpg", "dump2/\(n),copy.jpg"],
                                       firstIngested: "2026-12-01T01:02:03Z")],
                      files: [.init(role: "audio", relativePath: "evidence/audio.m4a", blobId: cid(n + 200), size: 99)],
                      reportJSON: Data(#"{"integrity":"\#(integrity.rawValue)","statusCodes":{"failure":[{"code":"assertion.dataHash.mismatch"}]},"limits":["a, \"quoted\" limit"],"ok":true}"#.utf8))
    }

    /// An archive with four records; returns its path (inside `scratch`).
    static func archive(_ scratch: Scratch) throws -> String {
        #expect(cli(["init", "--archive", scratch.archive]).code == .success)
        let store = try ContentStore.open(at: scratch.archive)
        let index = try RecordIndex(environment: store.environment)
        let log = try CustodyLog(environment: store.environment)
        let agent = CustodyAgent(operator: "tester", tool: .init(name: "exhibit-archive", version: "test"), host: "h")
        try store.environment.write { txn in
            try index.put(rec(1, integrity: "intact", time: "2026-11-30T14:05:06.789Z", sidecars: ["audio": "uncommitted", "ring": "verified"]), in: txn)
            try index.put(rec(2, integrity: "tampered", time: "2026-11-30", sidecars: ["audio": "verified"], kind: "video"), in: txn)
            try index.put(rec(3, integrity: "unsigned", time: "2026-11-30T14", sidecars: ["depth": "uncommitted"], trust: nil, key: nil), in: txn)
            try index.put(rec(4, integrity: "intact", time: "2026-10-01", sidecars: [:], trust: "untrusted"), in: txn)
            try log.append(CustodyDraft(.ingestion, agent: agent, objects: [.record(cid(1)), .blob(cid(101))], detail: "intact"), in: txn)
            try log.append(CustodyDraft(.fixityCheck, agent: agent, objects: [.blob(cid(201))], detail: "ok"), in: txn)
            try log.append(CustodyDraft(.ingestion, agent: agent, objects: [.record(cid(2))], outcome: .warning, detail: "tampered"), in: txn)
        }
        return scratch.archive
    }

    @Test func countsInEveryFormat() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        var r = cli(["query", "--archive", a, "--sidecar", "uncommitted", "--count"])
        #expect(r.code == .success)
        #expect(r.out == "matches 2\nindeterminate 0\n")
        r = cli(["query", "--archive", a, "--time", "2026-11-30T14", "--count", "--format", "json"])
        #expect(r.out == #"{"matches":2,"indeterminate":1}"# + "\n")
        r = cli(["query", "--archive", a, "--sidecar", "uncommitted", "--sink", "depth", "--count", "--format", "csv"])
        #expect(r.out == "matches,indeterminate\n1,0\n")
        r = cli(["query", "--archive", a, "--count"])
        #expect(r.out == "matches 4\nindeterminate 0\n")
    }

    @Test func csvDecodesToTheRecords() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        let r = cli(["query", "--archive", a, "--time", "2026-11-30T14", "--format", "csv"])
        #expect(r.code == .success)
        let rows = CSV.parse(r.out)
        #expect(rows.first == RecordRow.csvHeader)
        let body = Array(rows.dropFirst())
        #expect(body.map { $0[0] } == [Self.id(1), Self.id(3), Self.id(2)])
        #expect(body.map { $0[8] } == ["false", "false", "true"])
        #expect(body[0] == [Self.id(1), "still", "intact", "trusted", String(repeating: "ab", count: 32),
                            "2026-11-30T14:05:06.789Z", "2026-12-01T01:02:03Z", "audio=uncommitted;ring=verified", "false",
                            "uncommitted", "", "verified", "", "", ""])
        // The sink and failure-code columns a spreadsheet filters on.
        #expect(rows.first?[9...] == ["audio", "sensors", "ring", "depth", "second-view", "failureCodes"])
        #expect(body[2][9...] == ["verified", "", "", "", "", "assertion.dataHash.mismatch"])
        #expect(body[1][3] == "" && body[1][4] == "")
    }

    @Test func jsonLinesDecodeToRows() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        let r = cli(["query", "--archive", a, "--state", "intact", "--json"])
        #expect(r.code == .success)
        let rows = try r.out.split(separator: "\n").map { try JSONDecoder().decode(RecordRow.self, from: Data($0.utf8)) }
        #expect(rows.map(\.recordId.hex) == [Self.id(1), Self.id(4)])
        #expect(rows[1].trust == "untrusted")
        #expect(rows.allSatisfy { !$0.indeterminate })
        let keyed = cli(["query", "--archive", a, "--key", "ABAB", "--kind", "video", "--format", "json"])
        #expect(try keyed.out.split(separator: "\n").map { try JSONDecoder().decode(RecordRow.self, from: Data($0.utf8)).recordId.hex } == [Self.id(2)])
    }

    @Test func tableListsIndeterminateApart() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        let r = cli(["query", "--archive", a, "--time", "2026-11-30T14"])
        #expect(r.code == .success)
        let parts = r.out.components(separatedBy: "Indeterminate (")
        #expect(parts.count == 2)
        #expect(parts[0].hasPrefix("RECORD"))
        #expect(parts[0].contains(Self.id(1)) && parts[0].contains(Self.id(3)) && !parts[0].contains(Self.id(2)))
        #expect(parts[1].contains(Self.id(2)) && !parts[1].contains(Self.id(1)))
        #expect(r.out.hasSuffix("2 matching, 1 indeterminate\n"))
    }

    @Test func limitListsTheFirstRecords() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        // Records 1, 2, 4 carry key abab…; ascending IDs 111…, 222…, 444….
        var r = cli(["query", "--archive", a, "--key", "abab", "--limit", "2", "--format", "csv"])
        #expect(r.code == .success)
        #expect(CSV.parse(r.out).dropFirst().map { $0[0] } == [Self.id(1), Self.id(2)])
        r = cli(["query", "--archive", a, "--key", "abab", "--limit", "2"])
        #expect(r.out.hasSuffix("first 2 matching, 0 indeterminate (--limit 2; --count for the totals)\n"))
        r = cli(["query", "--archive", a, "--key", "abab", "--limit", "5"])
        #expect(r.out.hasSuffix("\n3 matching, 0 indeterminate\n"))
        r = cli(["query", "--archive", a, "--time", "2026-11-30T14", "--limit", "1", "--format", "json"])
        #expect(try r.out.split(separator: "\n").map { try JSONDecoder().decode(RecordRow.self, from: Data($0.utf8)) }.map(\.recordId.hex)
                == [Self.id(1), Self.id(2)])
        for bad in [["--limit", "0"], ["--limit", "x"], ["--limit", "3", "--count"]] {
            r = cli(["query", "--archive", a] + bad)
            #expect(r.code == .usage, "\(bad)")
            #expect(r.err.contains("--limit"), "\(bad): \(r.err)")
        }
    }

    @Test func badValuesAreUsageErrors() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        let cases: [([String], String)] = [
            (["--state", "fine"], "--state must be one of intact, tampered, unsigned, malformed"),
            (["--sidecar", "lost"], "--sidecar must be one of verified, mismatch, missing, uncommitted"),
            (["--sink", "video"], "--sink must be one of audio, sensors, ring, depth"),
            (["--kind", "sculpture"], "--kind must be one of still, video, audio, document"), // audio is a kind since issue 16
            (["--trust", "maybe"], "--trust must be one of trusted, untrusted"),
            (["--format", "xml"], "--format must be one of table, json, csv"),
            (["--key", "xyz"], "--key must be a key fingerprint"),
            (["--time", "30-11-2026"], "--time must be a prefix of YYYY-MM-DDTHH:MM:SS.sssZ"),
            (["--json", "--format", "csv"], "--json conflicts with --format csv"),
        ]
        for (args, message) in cases {
            let r = cli(["query", "--archive", a] + args)
            #expect(r.code == .usage, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
            #expect(r.out.isEmpty)
        }
    }

    /// The kinds of the formats of issue 16 select records (none in this archive).
    @Test func audioAndDocumentKindsAreAccepted() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        for kind in ["audio", "document"] {
            let r = cli(["query", "--archive", a, "--kind", kind, "--count"])
            #expect(r.code == .success && r.out == "matches 0\nindeterminate 0\n", "\(kind): \(r.err)")
        }
    }

    /// The lines of one section of `show`'s text (after its title line, up to the next blank
    /// line), with runs of spaces collapsed.
    static func section(_ out: String, _ title: String) -> [String] {
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
    }

    @Test func showPrintsEverythingAboutARecord() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        let r = cli(["show", "--archive", a, String(Self.id(1).prefix(8))])
        #expect(r.code == .success, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "record \(Self.id(1))")
        let sidecars = Self.section(r.out, "Sidecars")
        #expect(sidecars.contains("audio: uncommitted"))
        #expect(sidecars.contains("ring: verified"))
        let files = Self.section(r.out, "Files")
        #expect(files.contains("variant: \(Self.id(101)) 1234 bytes, first ingested 2026-12-01T01:02:03Z"))
        #expect(files.contains("source: dump2/1,copy.jpg"))
        #expect(files.contains("audio: \(Self.id(201)) 99 bytes evidence/audio.m4a"))
        #expect(Self.section(r.out, "Integrity").contains("failure: assertion.dataHash.mismatch"))
        // No flattened report lines; every field of the stored report is in --json.
        #expect(!r.out.contains("report."))
        let top = try #require(try JSONSerialization.jsonObject(with: Data(cli(["show", "--archive", a, "--json", Self.id(1)]).out.utf8)) as? [String: Any])
        #expect((top["report"] as? [String: Any])?["ok"] as? Bool == true)
        let custody = Self.section(r.out, "Custody")
        #expect(custody.count == 2)   // the record's ingestion and its audio blob's fixity check, not record 2's
        #expect(custody[0].hasPrefix("1 ") && custody[0].contains(" ingestion success tester@h: intact"))
        #expect(custody[1].hasPrefix("2 ") && custody[1].contains(" fixity check success tester@h: ok"))
        #expect(["Integrity", "Signer", "Time", "Sidecars", "Files", "Custody"].allSatisfy { lines.contains($0) })
        #expect(Self.section(r.out, "Signer").contains("trust: trusted"))
        #expect(Self.section(r.out, "Time").contains("capture time: 2026-11-30T14:05:06.789Z"))
    }

    @Test func showJSONCarriesRecordReportAndCustody() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        let r = cli(["show", "--archive", a, "--json", Self.id(2)])
        #expect(r.code == .success)
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        let record = object?["record"] as? [String: Any]
        #expect(record?["recordId"] as? String == Self.id(2))
        #expect(record?["integrity"] as? String == "tampered")
        #expect(record?["reportJSON"] == nil)
        let report = object?["report"] as? [String: Any]
        #expect(report?["integrity"] as? String == "tampered")
        let custody = object?["custody"] as? [[String: Any]]
        #expect(custody?.count == 1)
        #expect(custody?.first?["outcome"] as? String == "warning")
    }

    @Test func showResolvesPrefixes() throws {
        let s = Scratch()
        let a = try Self.archive(s)
        #expect(cli(["show", "--archive", a, "1111111"]).code == .usage)        // fewer than 8 digits
        #expect(cli(["show", "--archive", a, "1111111g"]).code == .usage)       // not hex
        let missing = cli(["show", "--archive", a, "99999999"])
        #expect(missing.code == .failure)
        #expect(missing.err.contains("index.record.notFound"))
        // Two records sharing a prefix: ambiguous.
        let store = try ContentStore.open(at: a)
        let index = try RecordIndex(environment: store.environment)
        var twin = Self.rec(5, integrity: "intact", time: nil, sidecars: [:])
        twin.recordId = ContentID(hex: String(Self.id(1).prefix(10)) + String(repeating: "0", count: 54))!
        try index.put(twin)
        let ambiguous = cli(["show", "--archive", a, String(Self.id(1).prefix(8))])
        #expect(ambiguous.code == .usage)
        #expect(ambiguous.err.contains("matches several records"))
        #expect(cli(["show", "--archive", a, String(Self.id(1).prefix(11))]).code == .success)
    }
}
