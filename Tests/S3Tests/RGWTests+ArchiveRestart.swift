import Foundation
import ProcessSupport
import Testing

extension RGWTests {
    /// radosgw SIGKILLed (by its pid file) during an ingest into an S3-backed archive and
    /// started again (ceph-up.sh's idempotent restart): the ingest rides through on retries or
    /// fails cleanly (exit 3, no signal); a re-run completes with the answers of an LMDB
    /// archive; audit is clean; gc leaves no object outside the ledger. The server is left
    /// running.
    @Suite struct ArchiveRestart {
        @Test func radosgwKilledDuringIngest() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let binary = try #require(S3Archive.binaryPath(), "exhibit-archive must be built")
            #expect(FileManager.default.fileExists(atPath: s.cephDir + "/run/client.rgw.a.pid"), "radosgw's pid file under \(s.cephDir)")
            let dump = try s.dump(stills: 16, videos: 2, seconds: 3)
            let lmdb = s.root + "/lmdb", remote = s.root + "/s3", prefix = S3Archive.prefix()
            #expect(s.cli(["init", "--archive", lmdb]).code == .success)
            #expect(s.initS3(remote, prefix: prefix).code == .success)
            let reference = s.cli(["ingest", "--archive", lmdb] + S3Archive.trust(dump) + [dump])

            // The ingest as its own process; radosgw killed 1.5 s in, started again at once.
            let ingest = Process()
            ingest.executableURL = URL(fileURLWithPath: binary)
            ingest.arguments = ["ingest", "--archive", remote, "--jobs", "2"] + S3Archive.trust(dump) + [dump]
            ingest.environment = s.environment
            ingest.standardOutput = FileHandle.nullDevice
            let errPath = s.root + "/ingest.err"
            _ = FileManager.default.createFile(atPath: errPath, contents: nil)
            ingest.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
            try ingest.run()
            usleep(1_500_000)
            let killed = CephTestServer.killRadosgw(cephDir: s.cephDir)
            let up = CephTestServer.restart(cephDir: s.cephDir)
            #expect(up.status == 0, "\(up.stderr)")
            ingest.waitUntilExit()
            #expect(killed, "radosgw was not running")
            #expect(ingest.terminationReason == .exit, "the ingest died of a signal")
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            // Rode through (exit 1: the dump's faults) or stopped cleanly on the store (exit 3).
            #expect([1, 3].contains(ingest.terminationStatus), "exit \(ingest.terminationStatus): \(err)")
            if ingest.terminationStatus == 3 { #expect(err.contains("s3.unavailable"), "\(err)") }

            // The re-run completes; the answers are the LMDB archive's.
            let again = s.cli(["ingest", "--archive", remote] + S3Archive.trust(dump) + [dump])
            #expect(again.code == reference.code, "\(again.err)")
            let query = s.cli(["query", "--archive", lmdb, "--json"]).out
            #expect(S3Archive.normalized(s.cli(["query", "--archive", remote, "--json"]).out) == S3Archive.normalized(query))
            // Every record whole, its thumbnail included (none lost to the outage as a finding).
            for line in query.split(separator: "\n") {
                let id = try #require(((try JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["recordId"] as? String)
                #expect(S3Archive.normalized(s.cli(["show", "--archive", remote, "--json", id]).out)
                        == S3Archive.normalized(s.cli(["show", "--archive", lmdb, "--json", id]).out), "record \(id)")
            }
            #expect(s.cli(["audit", "--archive", remote]).code == .success)
            #expect(s.cli(["log", "--archive", remote, "--verify"]).code == .success)
            let gc = s.cli(["gc", "--archive", remote, "--json"])
            #expect(gc.code == .success, "\(gc.err)")
            let stats = s.cli(["stats", "--archive", remote, "--json"]).out
            let lstats = s.cli(["stats", "--archive", lmdb, "--json"]).out
            let blobs = { (t: String) in ((try? JSONSerialization.jsonObject(with: Data(t.utf8))) as? [String: Any])?["blobs"] as? Int }
            #expect(blobs(stats) == blobs(lstats))
            _ = s.peer(["purge", s.bucket, prefix])
        }
    }
}
