import ArchivePostgres
import Foundation
@testable import Indexer
import Ingest
import PostgresTestSupport
import Testing

/// PostgreSQL stopped and started again under two worker processes, on a cluster of its own
/// (`$EXHIBIT_PG_DIR-workers-restart`, port from 47432), made by postgres-up.sh and stopped by
/// postgres-down.sh; the shared server is never disturbed.
@Suite(.serialized) struct WorkerServerRestartTests {
    static let dir = (ProcessInfo.processInfo.environment["EXHIBIT_PG_DIR"] ?? "/tmp/exhibit-pg") + "-workers-restart"

    func up() throws -> TestServer {
        TestServer(exports: try TestServer.up(Self.dir, environment: ["EXHIBIT_PG_PORT": "47432"]).get(), dir: Self.dir)
    }

    func down() {
        let run = Run.capture(["bash", TestServer.downScript, Self.dir])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Workers fail their current captures cleanly (given back to the queue), wait for the server
    /// and finish the dump: every job done, none failed, the LMDB ingest's records and answers,
    /// one whole custody chain.
    @Test func workersFinishTheDumpThroughAServerRestart() throws {
        let server = try up()
        defer { down() }
        let f = try PostgresArchiveFixture(server: server)
        let dump = try f.dump(stills: 8)
        let (lmdb, expected) = try WorkQueueCommandTests.lmdbIngest(f, dump)
        // The URL names this cluster's password file (`passfile=`, a path, not a password): the
        // in-process CLI's libpq reads this process's PGPASSFILE, which is the shared server's.
        let initialized = f.cli(["init", "--archive", f.archive, "--index", server.connectionURL, "--index-schema", f.schema.name])
        #expect(initialized.code == .success, "\(initialized.err)")
        #expect(f.cli(["ingest", "--enqueue", "--archive", f.archive, dump]).code != .archiveUnusable)
        let total = try f.queue().total
        let workers = try (0..<2).map { i in
            try f.start(["worker", "--archive", f.archive, "--jobs", "1", "--lease", "5"], log: f.root + "/worker\(i).log")
        }
        let deadline = Date().addingTimeInterval(120)
        while try f.queue().done < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let doneBefore = try f.queue().done
        down()
        Thread.sleep(forTimeInterval: 1)
        _ = try up()
        for w in workers { w.waitUntilExit() }
        for (i, w) in workers.enumerated() {
            let log = (try? String(contentsOfFile: f.root + "/worker\(i).log", encoding: .utf8)) ?? ""
            #expect(w.terminationReason == .exit && [0, 1].contains(w.terminationStatus), "worker \(i): \(log)")
        }
        #expect(doneBefore < total, "the restart came while jobs remained")
        #expect(try f.queue() == PostgresWorkQueue.Summary(done: total))
        try WorkQueueCommandTests.expectSameAsLMDB(f, lmdb, expected)
    }
}
