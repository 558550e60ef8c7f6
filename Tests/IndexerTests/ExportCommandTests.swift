import Foundation
import Ground
@testable import Indexer
import TestLiterals
import Testing

/// `exhibit-archive export` / `verify-export` through the CLI: init makes the key, ingest, export
/// by query and by ID prefix, verify-export text/JSON and exit codes, usage errors.
@Suite struct ExportCommandTests {
    @Test func initIngestExportVerify() throws {
        let dump = try VerifyCommandTests.Dump()
        let archive = dump.scratch.archive
        let initRun = cli(["init", "--archive", archive, "--json"])
        #expect(initRun.code == .success)
        let initObj = try #require(try JSONSerialization.jsonObject(with: Data(initRun.out.utf8)) as? [String: Any])
        let fingerprint = try #require(initObj["archiveKey"] as? String)
        #expect(fingerprint.count == 64 && initObj["archiveKeyCreated"] as? Bool == true)
        var st = stat()
        #expect(stat(archive + "/archive-key.pem", &st) == 0 && st.st_mode & 0o777 == 0o600)
        // A second init keeps the key.
        #expect(cli(["init", "--archive", archive]).out.contains("archive key \(fingerprint) (kept"))

        #expect(cli(["trust", "add", dump.pem, "--archive", archive]).code == .success)
        #expect(cli(["ingest", dump.root, "--archive", archive, "--operator", "intake"]).code == .success)

        let bag = dump.scratch.path + "/bag"
        let run = cli(["export", "--query", "--state", "intact", "--out", bag, "--case", "CLI v. Test",
                       "--operator", "clerk", "--archive", archive, "--json"])
        #expect(run.code == .success, "\(run.err)")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(obj["records"] as? Int == 1)
        #expect(obj["files"] as? Int == 3)  // IMG_1.jpg, evidence/audio.caf, disclosure/short.bundle.json
        #expect(obj["archiveKey"] as? String == fingerprint)
        #expect(obj["report"] as? String == bag + "/report.html")
        let info = try String(contentsOfFile: bag + "/bag-info.txt", encoding: .utf8)
        #expect(info.contains("Exhibit-Case: CLI v. Test\n") && info.contains("Contact-Name: clerk\n"))

        // The custody log shows the export.
        let log = cli(["log", "--archive", archive])
        #expect(log.out.contains(" dissemination success ") && log.out.contains(" digital signature generation success "))

        let ok = cli(["verify-export", bag])
        #expect(ok.code == .success)
        #expect(ok.out.contains("custody.json signed by key \(fingerprint)"))
        #expect(ok.out.hasSuffix("bag valid\n"))

        // Tamper: a flipped payload byte → exit 1, named in text and JSON.
        let recordId = try #require((try FileManager.default.contentsOfDirectory(atPath: bag + "/data")).first)
        let audio = bag + "/data/\(recordId)/evidence/audio.caf"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: audio)))
        bytes[0] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: audio))
        let bad = cli(["verify-export", bag])
        #expect(bad.code == .failure)
        #expect(bad.out.contains("FAIL bag.payloadChanged data/\(recordId)/evidence/audio.caf: "))
        #expect(bad.out.hasSuffix("bag INVALID: 1 problem(s)\n"))
        let badJSON = cli(["verify-export", bag, "--json"])
        let b = try #require(try JSONSerialization.jsonObject(with: Data(badJSON.out.utf8)) as? [String: Any])
        #expect(b["valid"] as? Bool == false)
        #expect((b["findings"] as? [[String: Any]])?.first?["code"] as? String == "bag.payloadChanged")

        // By ID prefix into a second bag; an existing bag is refused.
        let prefix = String(recordId.prefix(10))
        #expect(cli(["export", prefix, "--out", dump.scratch.path + "/bag2", "--archive", archive]).code == .success)
        let again = cli(["export", prefix, "--out", bag, "--archive", archive])
        #expect(again.code == .failure)
        #expect(again.err.contains("export.outputExists"))
    }

    @Test func usageAndFailureExitCodes() throws {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        #expect(cli(["export", "--query", "--archive", s.archive]).code == .usage)  // no --out
        #expect(cli(["export", "--out", s.path + "/b", "--archive", s.archive]).code == .usage)  // nothing selected
        #expect(cli(["export", "--kind", "still", "--out", s.path + "/b", "--archive", s.archive]).code == .usage)  // filter without --query
        #expect(cli(["export", "abcdef12", "--query", "--out", s.path + "/b", "--archive", s.archive]).code == .usage)
        #expect(cli(["export", "xyz", "--out", s.path + "/b", "--archive", s.archive]).code == .usage)
        let unknown = cli(["export", "abcdef1234", "--out", s.path + "/b", "--archive", s.archive])
        #expect(unknown.code == .failure)
        #expect(unknown.err.contains("export.unknownRecord"))
        let empty = cli(["export", "--query", "--out", s.path + "/b", "--archive", s.archive])
        #expect(empty.code == .failure)
        #expect(empty.err.contains("export.noRecords"))
        #expect(cli(["export", "--query", "--out", s.path + "/b", "--archive", s.path + "/none"]).code == .archiveUnusable)
        #expect(cli(["verify-export"]).code == .usage)
        let notBag = cli(["verify-export", s.path])
        #expect(notBag.code == .failure)
        #expect(notBag.out.contains("FAIL bag.notABag"))
    }
}
