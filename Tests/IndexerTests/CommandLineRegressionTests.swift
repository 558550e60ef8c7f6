import CAS
import Custody
import Foundation
import Ingest
import Query
import Testing
@testable import Indexer

/// Issue 18 §3 (each bug seen, as a regression test) and issue 17 item 7 (control characters
/// in names forge text lines).
@Suite struct CommandLineRegressionTests {
    @Test func trustAddOfANonPEMFileShowsTrustUsage() throws {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        let notPEM = s.file("hostname", bytes: Array("myhost\n".utf8))
        let r = cli(["trust", "add", notPEM, "--archive", s.archive])
        #expect(r.code == .usage)
        #expect(r.err.contains("Error: <pem>: \(notPEM): pem.noCertificate"), "\(r.err)")
        #expect(r.err.contains("USAGE: exhibit-archive trust "), "\(r.err)")
        #expect(!r.err.contains("ingest"))
        let typo = cli(["trust", "ad", notPEM, "--archive", s.archive])
        #expect(typo.code == .usage && typo.err.contains("did you mean 'add'?"), "\(typo.err)")
    }

    @Test func logRecordTakesPrefixesAndRefusesMalformedIDs() throws {
        let s = Scratch()
        let a = try QueryCommandTests.archive(s)
        let id1 = QueryCommandTests.id(1)
        let full = cli(["log", "--record", id1, "--archive", a, "--json"]).out
        #expect(full.split(separator: "\n").count == 1)
        let prefix = cli(["log", "--record", String(id1.prefix(8)).uppercased(), "--archive", a, "--json"])
        #expect(prefix.code == .success && prefix.out == full, "\(prefix.err)")
        let bad = cli(["log", "--record", "zz", "--archive", a])
        #expect(bad.code == .usage && bad.err.contains("'zz' is not a record ID or a prefix of one"), "\(bad.err)")
        let none = cli(["log", "--record", "99999999", "--archive", a])
        #expect(none.code == .failure && none.err.contains("index.record.notFound"))
        // A full ID names a record or a blob: the audio blob's fixity check.
        let blob = cli(["log", "--record", QueryCommandTests.id(201), "--archive", a])
        #expect(blob.code == .success && blob.out.contains(" fixity check "))
    }

    @Test func impossibleDatesAreUsageErrors() throws {
        let s = Scratch()
        let a = try QueryCommandTests.archive(s)
        for bad in ["2026-13", "2026-00", "2026-2", "2026-02-30", "2026-02-3", "2025-02-29", "2026-04-31", "2026-11-32",
                    "2026-11-30T24", "2026-11-30T3", "2026-11-30T14:60", "2026-11-30T14:6", "2026-11-30T14:05:61", "2026-11-00"] {
            let r = cli(["query", "--time", bad, "--archive", a, "--count"])
            #expect(r.code == .usage, "\(bad)")
            #expect(r.err.contains("is not a possible date or time"), "\(bad): \(r.err)")
        }
        for good in ["2", "2026-1", "2026-12", "2028-02-29", "2026-02-2", "2026-11-30T2", "2026-11-30T23:5", "2026-11-30T14:05:06.789Z"] {
            #expect(cli(["query", "--time", good, "--archive", a, "--count"]).code == .success, "\(good)")
        }
        #expect(cli(["export", "--query", "--time", "2026-13", "--out", s.path + "/b", "--archive", a]).code == .usage)
        #expect(cli(["reverify", "--time", "2026-02-30", "--archive", a]).code == .usage)
    }

    @Test func repeatedFiltersMeanOrWithinAndAcross() throws {
        let s = Scratch()
        let a = try QueryCommandTests.archive(s)
        func ids(_ args: [String]) throws -> [String] {
            let r = cli(["query", "--archive", a, "--format", "json"] + args)
            #expect(r.code == .success, "\(args): \(r.err)")
            return try r.out.split(separator: "\n").map { try JSONDecoder().decode(RecordRow.self, from: Data($0.utf8)).recordId.hex }
        }
        let (id1, id2, id3, id4) = (QueryCommandTests.id(1), QueryCommandTests.id(2), QueryCommandTests.id(3), QueryCommandTests.id(4))
        // Records: 1 audio uncommitted + ring verified (intact), 2 audio verified (tampered),
        // 3 depth uncommitted (unsigned), 4 no sidecar (intact).
        #expect(try ids(["--sidecar", "uncommitted"]) == [id1, id3])
        #expect(try ids(["--sidecar", "uncommitted", "--sidecar", "verified"]) == [id1, id2, id3])
        #expect(try ids(["--sidecar", "uncommitted,verified"]) == [id1, id2, id3])
        #expect(try ids(["--sidecar", "uncommitted", "--state", "intact"]) == [id1])
        #expect(try ids(["--state", "tampered", "--state", "unsigned"]) == [id2, id3])
        #expect(try ids(["--state", "intact,tampered", "--sink", "audio"]) == [id1, id2])
        #expect(try ids(["--sidecar", "uncommitted,verified", "--sink", "audio"]) == [id1, id2])
        #expect(try ids(["--state", "intact", "--state", "intact"]) == [id1, id4])
        let count = cli(["query", "--archive", a, "--sidecar", "uncommitted", "--sidecar", "verified", "--count"])
        #expect(count.out == "matches 3\nindeterminate 0\n")
        // A record matching one --time prefix and indeterminate under another is a match.
        let times = cli(["query", "--archive", a, "--time", "2026-11-30T14", "--time", "2026-11-30", "--count"])
        #expect(times.out == "matches 3\nindeterminate 0\n", "\(times.out)")
        let bad = cli(["query", "--archive", a, "--state", "intact,tamperd"])
        #expect(bad.code == .usage && bad.err.contains("not 'tamperd'; did you mean 'tampered'?"), "\(bad.err)")
        #expect(cli(["query", "--archive", a, "--state", "intact,"]).code == .usage)
    }

    @Test func versionAndDidYouMean() throws {
        let v = cli(["--version"])
        #expect(v.code == .success && v.out == "exhibit-archive \(CustodyAgent.toolVersion)\n")
        #expect(Product.version == CustodyAgent.toolVersion)
        let sub = cli(["verfy", "x"])
        #expect(sub.code == .usage && sub.err.contains("unknown subcommand 'verfy'; did you mean 'verify'?"))
        let opt = cli(["ingest", "--operater", "x", "dump"])
        #expect(opt.code == .usage && opt.err.contains("unknown option '--operater'; did you mean '--operator'?"))
        #expect(opt.err.contains("USAGE: exhibit-archive ingest"))
        let wrapped = cli(["query", "--help"], env: ["COLUMNS": "60"])
        #expect(wrapped.out.split(separator: "\n").allSatisfy { $0.count <= 60 }, "\(wrapped.out)")
        #expect(cli(["query", "--help"]).out.split(separator: "\n").contains { $0.count > 100 })   // no width known: as written
    }

    @Test func controlCharactersInNamesCannotForgeLines() throws {
        let dump = try VerifyCommandTests.Dump()
        let forged = dump.root + "/captures/c1\nsidecar audio verified"
        try FileManager.default.moveItem(atPath: dump.folder, toPath: forged)
        let archive = dump.scratch.archive
        #expect(cli(["init", "--archive", archive]).code == .success)
        let ingest = cli(["ingest", dump.root, "--archive", archive, "--trust", dump.pem])
        let id = try #require(ingest.out.split(separator: "\n").first?.split(separator: " ").dropFirst().first.map(String.init), "\(ingest.out)")
        let show = cli(["show", id, "--archive", archive])
        let log = cli(["log", "--archive", archive])
        let verify = cli(["verify", dump.root, "--trust", dump.pem])
        for (name, text) in [("ingest", ingest.out), ("show", show.out), ("log", log.out), ("verify", verify.out)] {
            let lines = text.split(separator: "\n")
            #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("sidecar audio verified") }, "\(name): \(text)")
            #expect(text.contains("c1\\nsidecar audio verified"), "\(name): \(text)")
        }
        // JSON keeps the name exactly.
        let json = cli(["show", id, "--archive", archive, "--json"])
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let variants = try #require((top["record"] as? [String: Any])?["variants"] as? [[String: Any]])
        #expect((variants.first?["sourcePaths"] as? [String])?.first?.contains("c1\nsidecar audio verified") == true)
    }
}
