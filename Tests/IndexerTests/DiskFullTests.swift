import Foundation
import Testing
@testable import Indexer

/// Issue 17 item 5: `ingest --no-media` of a 32-capture dump into an archive on a 24 MB tmpfs
/// stops with exit 3 and `cas.storage.diskFull` — never SIGSEGV (workers outliving the
/// environment) and, with `EXHIBIT_LMDB_WRITEMAP=1`, never SIGBUS (an unallocated page of the
/// map). Repeated with different worker counts and batch sizes: every time, what committed
/// stays (the records printed before the failure are there), `audit` and `log --verify` are
/// clean, and after the file system is grown the same ingest completes.
@Suite(.serialized, .enabled(if: Hostile.isRoot, "needs root: mount tmpfs"))
struct DiskFullTests {
    final class Fixture {
        let scratch = Scratch()
        let binary: String
        let dump: String
        init() throws {
            binary = try #require(binaryPath(), "build exhibit-archive first")
            dump = scratch.path + "/dump"
            // 22 stills and 10 videos: 26 MB of files, more than the file system holds.
            try Hostile.dump(at: dump, stills: 22, videos: 10, seed: 5)
        }
    }

    func trial(_ f: Fixture, _ n: Int, jobs: Int, batchMB: Int, writeMap: Bool) throws {
        let mount = f.scratch.path + "/fs\(n)"
        let unmount = try Hostile.mountTmpfs(mount, megabytes: 24)
        defer { unmount() }
        let archive = mount + "/archive"
        var env = ["EXHIBIT_LMDB_MAPSIZE": "1048576", "EXHIBIT_CAS_BATCH_MB": "\(batchMB)"]
        if writeMap { env["EXHIBIT_LMDB_WRITEMAP"] = "1" }
        let label = "trial \(n) jobs \(jobs) batch \(batchMB) MiB writemap \(writeMap)"
        func run(_ args: [String]) throws -> ChildRun {
            let r = try Hostile.run(f.binary, args + ["--archive", archive], environment: env)
            #expect(!r.signalled, "\(label) \(args): killed by signal \(r.status)")
            return r
        }
        #expect(try run(["init"]).status == 0, "\(label)")
        let anchors = ["--trust", f.dump + "/trust/signer-root.pem", "--tsa-trust", f.dump + "/trust/tsa-root.pem"]
        let full = try run(["ingest", "--no-media", "--jobs", "\(jobs)", f.dump] + anchors)
        #expect(full.status == 3, "\(label): \(full)")
        #expect(full.err.contains("Error: cas.storage.diskFull:"), "\(label): \(full.err)")
        let committed = full.out.split(separator: "\n").filter { $0.hasPrefix("new ") }.count
        #expect(committed < 32, "\(label): the disk never filled")

        // What committed stays, and the archive is consistent.
        let count = try run(["query", "--count", "--json"])
        #expect(count.out.contains("\"matches\":\(committed)"), "\(label): \(count.out) after \(committed) committed")
        let audit = try run(["audit"])
        #expect(audit.status == 0 && audit.out.contains(" 0 damaged"), "\(label): \(audit)")
        let log = try run(["log", "--verify"])
        #expect(log.status == 0 && log.out.contains("chain intact"), "\(label): \(log)")

        // Room again: the same ingest completes.
        try Hostile.tool("/bin/mount", ["-o", "remount,size=160m", mount])
        let again = try run(["ingest", "--no-media", "--jobs", "\(jobs)", f.dump] + anchors)
        #expect(again.status == 0, "\(label): \(again)")
        let all = try run(["query", "--count", "--json"])
        #expect(all.out.contains("\"matches\":32"), "\(label): \(all.out)")
        #expect(try run(["log", "--verify"]).out.contains("chain intact"), "\(label)")
    }

    /// Ten trials on one dump: six with the default pwrite path, four with `MDB_WRITEMAP`.
    @Test func ingestOnAFullDiskStopsCleanly() throws {
        let f = try Fixture()
        let settings: [(jobs: Int, batch: Int, writeMap: Bool)] = [
            (2, 4, false), (1, 4, false), (3, 1, false), (2, 8, false), (4, 2, false), (2, 1, false),
            (2, 4, true), (1, 1, true), (3, 2, true), (2, 8, true),
        ]
        for (n, s) in settings.enumerated() { try trial(f, n, jobs: s.jobs, batchMB: s.batch, writeMap: s.writeMap) }
    }
}
