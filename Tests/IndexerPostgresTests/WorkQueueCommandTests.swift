import Archive
import ArchiveLMDB
import ArchivePostgres
import CAS
import Foundation
import Ground
@testable import Indexer
import Ingest
import Postgres
import PostgresTestSupport
import Query
import Testing

/// `ingest --enqueue`, `worker` processes and `queue` over one faulted dump (docs/postgres.md
/// "Work queue commands"): every capture exactly once, the records and query answers of a
/// plain LMDB ingest, one whole custody chain whatever kills the workers.
@Suite(.serialized) struct WorkQueueCommandTests {
    /// The filters whose answers both stores must give alike.
    static let filters: [RecordFilter] = [
        RecordFilter(), RecordFilter(integrity: .intact), RecordFilter(integrity: .tampered), RecordFilter(integrity: .unsigned),
        RecordFilter(integrity: .malformed), RecordFilter(sidecarState: .mismatch), RecordFilter(sidecarState: .missing),
        RecordFilter(sidecarState: .failed), RecordFilter(sidecarState: .verified, sink: .audio), RecordFilter(kind: .video),
        RecordFilter(kind: .still), RecordFilter(trust: .untrusted), RecordFilter(timePrefix: "2026"),
    ]

    /// The plain LMDB ingest of `dump` and its records, by ID.
    static func lmdbIngest(_ f: PostgresArchiveFixture, _ dump: String) throws -> (LMDBArchive, [ContentID: IndexedRecord]) {
        let path = f.root + "/lmdb"
        #expect(f.cli(["init", "--archive", path]).code == .success)
        let ingest = f.cli(["ingest", "--archive", path, "--jobs", "2", dump])
        #expect(ingest.code == .failure, "the faulted dump needs attention: \(ingest.err)")
        let archive = try LMDBArchive(store: ContentStore.open(at: path))
        let ids = try archive.records.query(RecordFilter()).matches
        return (archive, Dictionary(uniqueKeysWithValues: try archive.records.records(ids) { _, _ in }.map { ($0.recordId, $0) }))
    }

    /// What both stores hold alike, and the chain: every capture's source path in exactly one
    /// variant, one `ingestion` event per source path, no seq twice, `verifyChain` intact.
    static func expectSameAsLMDB(_ f: PostgresArchiveFixture, _ lmdb: LMDBArchive, _ expected: [ContentID: IndexedRecord]) throws {
        let (records, custody, connection) = try f.stores()
        let ids = try records.query(RecordFilter()).matches
        let got = try records.records(ids) { id, e in Issue.record("\(id.hex) damaged: \(e)") }
        #expect(Set(ids) == Set(expected.keys))
        for r in got { #expect(comparable(r) == expected[r.recordId].map(comparable), "\(r.recordId.hex)") }
        for filter in filters {
            #expect(try records.query(filter) == lmdb.records.query(filter), "\(filter)")
            #expect(try records.count(filter) == lmdb.records.count(filter), "\(filter)")
        }
        let paths = got.flatMap { $0.variants.flatMap(\.sourcePaths) }
        let expectedPaths = expected.values.flatMap { $0.variants.flatMap(\.sourcePaths) }
        #expect(paths.sorted() == expectedPaths.sorted(), "each capture exactly once")
        #expect(Set(paths).count == paths.count)
        let verification = try custody.verifyChain()
        #expect(verification.isIntact, "\(verification.problems)")
        let seqs = try connection.read { tx in
            try tx.execute("SELECT count(*), count(DISTINCT seq), coalesce(max(seq), 0) FROM custody_events").single().map {
                [try $0.decode(0, as: Int.self), try $0.decode(1, as: Int.self), try $0.decode(2, as: Int.self)]
            }
        }
        #expect(seqs?[0] == seqs?[1] && seqs?[1] == seqs?[2], "no seq twice, none skipped: \(seqs ?? [])")
        let ingestions = try custody.custodyEvents().filter { $0.eventType == .ingestion }.count
        let lmdbIngestions = try lmdb.custodyStore.custodyEvents().filter { $0.eventType == .ingestion }.count
        #expect(ingestions == lmdbIngestions, "one ingestion event per capture")
    }

    /// Plain `ingest` into a PostgreSQL-indexed archive (the façade's PostgreSQL stores): the
    /// LMDB ingest's records, answers and events; a second run finds everything present.
    @Test func ingestIntoPostgresGivesWhatIngestIntoLMDBGives() throws {
        let f = try PostgresArchiveFixture()
        let dump = try f.dump(stills: 4)
        let (lmdb, expected) = try Self.lmdbIngest(f, dump)
        #expect(f.initArchive().code == .success)
        let first = f.cli(["ingest", "--archive", f.archive, "--jobs", "2", "--json", dump])
        #expect(first.code == .failure, "attention, as the LMDB ingest: \(first.err)")
        try Self.expectSameAsLMDB(f, lmdb, expected)
        let again = f.cli(["ingest", "--archive", f.archive, "--json", dump])
        let summary = try #require(again.out.split(separator: "\n").last)
        #expect(summary.contains(#""outcomes":{"new":0,"variant":0,"present":\#(Ingestor.walk([dump]).captures.count),"failed":0,"path-added":0}"#), "\(summary)")
        let lmdbSide = try LMDBArchive(store: ContentStore.open(at: f.archive))
        #expect(try lmdbSide.records.recordCount() == 0 && lmdbSide.custody.head().seq == 0, "nothing went to the archive's LMDB index or log")
        try Self.expectSameCommandAnswers(f, lmdbArchive: f.root + "/lmdb")
    }

    /// The reading commands on the PostgreSQL-indexed archive print what they print on the LMDB
    /// archive of the same dump: `query --json` rows byte for byte but `ingestTime` (each archive
    /// ingested the dump at its own moment), counts, `show`'s record and report, `log --verify`,
    /// `trust list` and `audit`'s record half — so none of them reads the archive's (empty) LMDB
    /// index.
    static func expectSameCommandAnswers(_ f: PostgresArchiveFixture, lmdbArchive: String) throws {
        func rows(_ out: String) -> [String] {
            out.split(separator: "\n").map { String($0).replacing(/"ingestTime":"[^"]*",/, with: "") }
        }
        let queries: [[String]] = [[], ["--state", "intact"], ["--state", "tampered"], ["--sidecar", "uncommitted"],
                                   ["--sidecar", "mismatch"], ["--kind", "video"], ["--trust", "untrusted"], ["--time", "2026"]]
        for q in queries {
            let pg = f.cli(["query", "--archive", f.archive, "--json"] + q), lmdb = f.cli(["query", "--archive", lmdbArchive, "--json"] + q)
            #expect(pg.code == lmdb.code && rows(pg.out) == rows(lmdb.out), "query \(q)")
            let pgCount = f.cli(["query", "--archive", f.archive, "--count"] + q)
            #expect(pgCount.out == f.cli(["query", "--archive", lmdbArchive, "--count"] + q).out, "query --count \(q)")
        }
        let firstRow = try #require(f.cli(["query", "--archive", f.archive, "--json", "--limit", "1"]).out.split(separator: "\n").first)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(firstRow.utf8)) as? [String: Any])
        let id = try #require(row["recordId"] as? String)
        func shown(_ archive: String) throws -> [String: Any] {
            let out = f.cli(["show", "--archive", archive, "--json", id])
            #expect(out.code == .success, "\(out.err)")
            return try #require(try JSONSerialization.jsonObject(with: Data(out.out.utf8)) as? [String: Any])
        }
        let (pgShow, lmdbShow) = (try shown(f.archive), try shown(lmdbArchive))
        #expect((pgShow["report"] as? NSDictionary) == (lmdbShow["report"] as? NSDictionary), "show: the same stored report")
        #expect((pgShow["custody"] as? [Any])?.count == (lmdbShow["custody"] as? [Any])?.count, "show: as many custody events")
        #expect((pgShow["indexLocation"] as? String)?.hasPrefix("postgresql://") == true)
        let (pgLog, lmdbLog) = (f.cli(["log", "--archive", f.archive, "--verify"]), f.cli(["log", "--archive", lmdbArchive, "--verify"]))
        #expect(pgLog.code == .success && pgLog.out == lmdbLog.out, "log --verify: \(pgLog.out) / \(lmdbLog.out)")
        #expect(f.cli(["trust", "list", "--archive", f.archive]).out == f.cli(["trust", "list", "--archive", lmdbArchive]).out)
        let audit = f.cli(["audit", "--archive", f.archive])
        #expect(audit.code == .success && audit.out.contains("0 damaged"), "\(audit.out)")
    }

    @Test func threeWorkersGiveWhatIngestGives() throws {
        let f = try PostgresArchiveFixture()
        let dump = try f.dump(stills: 6)
        let (lmdb, expected) = try Self.lmdbIngest(f, dump)
        #expect(f.initArchive().code == .success)
        let enqueued = f.cli(["ingest", "--enqueue", "--archive", f.archive, dump, "--json"])
        let captures = Ingestor.walk([dump]).captures.count
        #expect(enqueued.out.contains(#""captures":\#(captures),"added":\#(captures),"requeued":0,"alreadyQueued":0"#), "\(enqueued.out)")
        let again = f.cli(["ingest", "--enqueue", "--archive", f.archive, dump])
        #expect(again.out.contains("\(captures) captures: 0 added, 0 failed requeued, \(captures) already queued"), "\(again.out)")
        #expect(try f.queue() == PostgresWorkQueue.Summary(pending: captures))

        let workers = try (0..<3).map { i in
            try f.start(["worker", "--archive", f.archive, "--jobs", "1", "--lease", "30", "--json"], log: f.root + "/worker\(i).log")
        }
        for w in workers { w.waitUntilExit() }
        for (i, w) in workers.enumerated() {
            #expect(w.terminationReason == .exit && w.terminationStatus == 1, "worker \(i): attention, as ingest")
        }
        let lines = try (0..<3).flatMap { i in
            try String(contentsOfFile: f.root + "/worker\(i).log", encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix(#"{"type":"capture""#) }
        }
        #expect(lines.count == captures, "every capture reported once over the three workers")
        #expect(try f.queue() == PostgresWorkQueue.Summary(done: captures))
        let q = f.cli(["queue", "--archive", f.archive, "--json", "--state", "done", "--limit", "1000"])
        #expect(q.code == .success)
        #expect(q.out.split(separator: "\n").filter { $0.contains(#""type":"job""#) && $0.contains(#""result":""#) }.count == captures)
        try Self.expectSameAsLMDB(f, lmdb, expected)

        // A worker over an empty queue exits at once, clean.
        let idle = f.cli(["worker", "--archive", f.archive])
        #expect(idle.code == .success && idle.out.contains("ingest: 0 captures"), "\(idle.out)")
    }

    @Test func killedWorkersLoseNoJobAndIngestNothingTwice() throws {
        let f = try PostgresArchiveFixture()
        let dump = try f.dump(stills: 5)
        let (lmdb, expected) = try Self.lmdbIngest(f, dump)
        #expect(f.initArchive().code == .success)
        #expect(f.cli(["ingest", "--enqueue", "--archive", f.archive, dump]).code != .archiveUnusable)
        // Enough attempts that 20 kills never exhaust a job (the default is 5). A 1 s lease: a
        // trial that finds every job held by killed workers waits for one to run out.
        #expect(f.schema.psql("UPDATE work_jobs SET max_attempts = 100").status == 0)
        var rng = SystemRandomNumberGenerator()
        var killedHolding = 0
        let watch = try f.schema.connect()
        for trial in 0..<20 {
            let w = try f.start(["worker", "--archive", f.archive, "--jobs", "1", "--lease", "1"], log: f.root + "/kill\(trial).log")
            // Killed at a random moment once it holds a job (whatever the machine's load), or
            // after 5 s if it never gets one.
            let holding = Date().addingTimeInterval(5)
            while Date() < holding, try watch.read({ tx in
                try tx.execute("SELECT count(*) FROM work_jobs WHERE state = 'running' AND worker LIKE $1",
                               [.text("%:\(w.processIdentifier)")]).single()?.decode(0, as: Int.self) ?? 0
            }) == 0 {
                Thread.sleep(forTimeInterval: 0.01)
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.4, using: &rng))
            kill(w.processIdentifier, SIGKILL)
            w.waitUntilExit()
            if try f.queue().running > 0 { killedHolding += 1 }
        }
        #expect(killedHolding > 0, "some kill hit a worker holding a job")
        // What is left — pending jobs and those whose lease must run out — with one worker.
        let last = try f.start(["worker", "--archive", f.archive, "--lease", "2"], log: f.root + "/last.log")
        last.waitUntilExit()
        #expect(last.terminationReason == .exit && last.terminationStatus <= 1)
        let summary = try f.queue()
        #expect(summary == PostgresWorkQueue.Summary(done: summary.total) && summary.total == Ingestor.walk([dump]).captures.count, "\(summary)")
        let retried = f.schema.psql("SELECT count(*) FROM work_jobs WHERE attempts > 1").output
        #expect((Int(retried) ?? 0) > 0, "some job was taken again after its worker died")
        try Self.expectSameAsLMDB(f, lmdb, expected)
    }

    /// Fencing through the command line: a worker stopped (SIGSTOP) past its lease loses its
    /// jobs to another worker; resumed, its commits of those jobs are refused and roll back.
    @Test func aWorkerPausedPastItsLeaseCommitsNothingOfTheJobsTakenOver() throws {
        let f = try PostgresArchiveFixture()
        let dump = try f.dump(stills: 3)
        let (lmdb, expected) = try Self.lmdbIngest(f, dump)
        #expect(f.initArchive().code == .success)
        #expect(f.cli(["ingest", "--enqueue", "--archive", f.archive, dump]).code != .archiveUnusable)
        let paused = try f.start(["worker", "--archive", f.archive, "--jobs", "1", "--lease", "1"], log: f.root + "/paused.log")
        let deadline = Date().addingTimeInterval(60)
        while try f.queue().running == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        kill(paused.processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: 1.5)  // its lease runs out; its renewer is stopped too
        let other = try f.start(["worker", "--archive", f.archive, "--lease", "30"], log: f.root + "/other.log")
        // Resumed once the other worker has taken a job of it (not after the other exits: stopped
        // inside a commit, it holds the custody chain's lock the other would wait for).
        let taken = Date().addingTimeInterval(60)
        while (Int(f.schema.psql("SELECT count(*) FROM work_jobs WHERE attempts > 1").output) ?? 0) == 0, Date() < taken {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(paused.processIdentifier, SIGCONT)
        other.waitUntilExit()
        paused.waitUntilExit()
        #expect(paused.terminationReason == .exit && other.terminationReason == .exit)
        let summary = try f.queue()
        #expect(summary == PostgresWorkQueue.Summary(done: summary.total), "\(summary)")
        let takenOver = Int(f.schema.psql("SELECT count(*) FROM work_jobs WHERE attempts > 1").output) ?? 0
        #expect(takenOver > 0, "the stopped worker held jobs that the other took as attempt 2")
        let log = try String(contentsOfFile: f.root + "/paused.log", encoding: .utf8)
        #expect(log.components(separatedBy: "was taken over (lease lost)").count - 1 >= 1, "\(log)")
        try Self.expectSameAsLMDB(f, lmdb, expected)
    }

    /// `worker --follow` waits on an empty queue and ingests what is enqueued later; `queue`
    /// lists the jobs by state.
    @Test func aFollowingWorkerTakesJobsEnqueuedLater() throws {
        let f = try PostgresArchiveFixture()
        let dump = try f.dump(stills: 1, videos: 0)
        #expect(f.initArchive().code == .success)
        let follower = try f.start(["worker", "--archive", f.archive, "--follow", "--jobs", "1"], log: f.root + "/follow.log")
        defer { if follower.isRunning { kill(follower.processIdentifier, SIGKILL); follower.waitUntilExit() } }
        Thread.sleep(forTimeInterval: 1.5)
        #expect(follower.isRunning, "an empty queue does not end a --follow worker")
        let pending = f.cli(["ingest", "--enqueue", "--archive", f.archive, dump])
        #expect(pending.code == .failure && pending.err.contains("walk.symlink"), "the dump's symlink-escape fault is a walk problem, exit 1 as ingest")
        let captures = Ingestor.walk([dump]).captures.count
        let deadline = Date().addingTimeInterval(120)
        while try f.queue().done < captures, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(try f.queue() == PostgresWorkQueue.Summary(done: captures))
        #expect(follower.isRunning, "still waiting for more")
        let listed = f.cli(["queue", "--archive", f.archive, "--state", "done"])
        #expect(listed.code == .success)
        #expect(listed.out.split(separator: "\n").filter { $0.hasPrefix("done \(dump)//captures/") && $0.contains("attempts 1/5") }.count == captures,
                "\(listed.out)")
        #expect(listed.out.hasSuffix("queue: \(captures) jobs: pending 0, running 0 (expired 0), done \(captures), failed 0\n"))
        let failedOnly = f.cli(["queue", "--archive", f.archive])
        #expect(failedOnly.out == "queue: \(captures) jobs: pending 0, running 0 (expired 0), done \(captures), failed 0\n")

        // A failed job is listed with its error (exit 1) and pending again when enqueued again.
        #expect(f.schema.psql("UPDATE work_jobs SET state = 'failed', error = 'test.failure: made by the test' WHERE id = (SELECT min(id) FROM work_jobs)").status == 0)
        let failed = f.cli(["queue", "--archive", f.archive])
        #expect(failed.code == .failure)
        #expect(failed.out.hasPrefix("failed \(dump)//captures/") && failed.out.contains("attempts 1/5") && failed.out.contains("error: test.failure: made by the test"))
        let requeued = f.cli(["ingest", "--enqueue", "--archive", f.archive, dump])
        #expect(requeued.out.contains("\(captures) captures: 0 added, 1 failed requeued, \(captures - 1) already queued"), "\(requeued.out)")
        let again = Date().addingTimeInterval(120)
        while try f.queue().done < captures, Date() < again { Thread.sleep(forTimeInterval: 0.1) }
        #expect(try f.queue() == PostgresWorkQueue.Summary(done: captures), "the following worker took the requeued job")
    }

    /// A `--follow` worker verifies each claim against the trust anchors of the time it works
    /// it: an anchor added by `trust add` after the worker started makes the next captures it
    /// signs `trusted` (the anchors are read again when they changed).
    @Test func aFollowingWorkerSeesTrustAnchorsAddedAfterItStarted() throws {
        let f = try PostgresArchiveFixture()
        let before = try f.dump(stills: 1, videos: 0, name: "before", seed: 21, faults: [])
        let after = try f.dump(stills: 1, videos: 0, name: "after", seed: 22, faults: [])
        #expect(f.initArchive().code == .success)
        let follower = try f.start(["worker", "--archive", f.archive, "--follow", "--jobs", "1"], log: f.root + "/follow.log")
        defer { if follower.isRunning { kill(follower.processIdentifier, SIGKILL); follower.waitUntilExit() } }
        func drain(_ dump: String, until done: Int) throws {
            #expect(f.cli(["ingest", "--enqueue", "--archive", f.archive, dump]).code == .success)
            let deadline = Date().addingTimeInterval(120)
            while try f.queue().done < done, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            #expect(try f.queue() == PostgresWorkQueue.Summary(done: done))
        }
        let (first, second) = (Ingestor.walk([before]).captures.count, Ingestor.walk([after]).captures.count)
        try drain(before, until: first)
        #expect(f.cli(["query", "--trust", "trusted", "--count", "--archive", f.archive]).out.hasPrefix("matches 0\n"), "no anchor yet")

        #expect(f.cli(["trust", "add", after + "/trust/signer-root.pem", "--archive", f.archive]).code == .success)
        try drain(after, until: first + second)
        #expect(follower.isRunning)
        let trusted = f.cli(["query", "--trust", "trusted", "--count", "--archive", f.archive]).out
        #expect(trusted.hasPrefix("matches \(second)\n"), "the captures whose root was added after the worker started are trusted: \(trusted)")
    }
}
