import ArchiveContract
import ArchivePostgres
import Foundation
import Postgres
import PostgresTestSupport
import Synchronization
import Testing

/// PostgreSQL stopped and started again under the archive's stores, on a cluster of its own
/// (`$EXHIBIT_PG_DIR-archive-restart`, port from 46432 so it never races PostgresTests'
/// restart cluster for one), made by postgres-up.sh and stopped by postgres-down.sh after each
/// test; the shared server is never disturbed.
@Suite(.serialized) struct ServerRestartTests {
    static let dir = (ProcessInfo.processInfo.environment["EXHIBIT_PG_DIR"] ?? "/tmp/exhibit-pg") + "-archive-restart"

    func up() throws -> TestServer {
        let exports = try TestServer.up(Self.dir, environment: ["EXHIBIT_PG_PORT": "46432"]).get()
        return TestServer(exports: exports, dir: Self.dir)
    }

    func down() {
        let run = Run.capture(["bash", TestServer.downScript, Self.dir])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// A worker's commit of one capture — its record, its custody event and its job's
    /// completion — is cut by a restart between statements: the failure is typed
    /// (`pg.connection.lost`, retryable), nothing of it is stored, the job's lease survives,
    /// and running the same closure again commits it once.
    @Test func aRestartMidTransactionFailsCleanlyAndTheRetryCommitsOnce() throws {
        let db = try MigratedSchema(on: try up())
        defer { down() }
        let c = db.connection
        let record = RecordSamples.record(1)
        try c.write { tx in
            _ = try CustodyChain.append(objects: ["before"], in: tx, TestChain.event("before"))
            _ = try PostgresWorkQueue.enqueue([("capture-1", "{}")], in: tx)
        }
        let lease = try #require(try c.write { tx in try PostgresWorkQueue.claim(worker: "w", lease: 600, in: tx) }.first)
        var restart = true
        let commit = { (tx: Transaction) throws in
            try RecordTable.put(record, in: tx)
            _ = try CustodyChain.append(objects: [record.recordId.hex], in: tx, TestChain.event("ingest"))
            if restart {
                restart = false
                self.down()
                _ = try self.up()
            }
            try PostgresWorkQueue.complete(lease, result: record.recordId.hex, in: tx)
        }
        let error = #expect(throws: PostgresError.self) { try c.write(commit) }
        #expect(error?.code == .connectionLost && error?.isRetryable == true, "\(String(describing: error))")
        try c.read { tx throws in
            #expect(try RecordTable.get(recordId: record.recordId, in: tx) == nil)
            #expect(try CustodyChain.head(in: tx).seq == 1)
            #expect(try PostgresWorkQueue.summary(in: tx) == PostgresWorkQueue.Summary(running: 1))
        }
        try c.write(commit)
        #expect(c.reconnects == 1)
        try c.read { tx throws in
            #expect(try RecordTable.get(recordId: record.recordId, in: tx) == record)
            #expect(try CustodyChain.events(forObject: record.recordId.hex, in: tx).map(\.seq) == [2])
            #expect(try PostgresWorkQueue.jobs(in: tx).map { [$0.state.rawValue, $0.result ?? "", String($0.attempts)] } == [["done", record.recordId.hex, "1"]])
        }
        #expect(db.test.custodyVerdict() == "2|2|1|2|0|t")
    }

    /// A writer appending 150 events, each its own transaction, while the server restarts
    /// under it: it sees only typed, retryable failures (or `pg.commit.unknown`, which it
    /// settles by looking its event up), tries again, and ends with every event stored exactly
    /// once in one whole chain.
    @Test func aWriterRidesThroughARestart() throws {
        let server = try up()
        let db = try MigratedSchema(on: server)
        defer { down() }
        let total = 150
        let written = Mutex(0)
        let codes = Mutex<[PostgresError.Code]>([])
        let failure = Mutex<String?>(nil)
        @Sendable func writer() throws {
            let c = try db.connect()
            let deadline = Date().addingTimeInterval(120)
            var i = 0
            while i < total {
                guard Date() < deadline else { throw PostgresError(.misuse, message: "gave up at event \(i)") }
                do {
                    try c.write { tx in _ = try CustodyChain.append(objects: ["e-\(i)"], in: tx, TestChain.event("e \(i)")) }
                    i += 1
                    written.withLock { $0 = i }
                } catch let e as PostgresError where e.isRetryable || e.code == .commitOutcomeUnknown {
                    codes.withLock { $0.append(e.code) }
                    Thread.sleep(forTimeInterval: 0.05)
                    if e.code == .commitOutcomeUnknown {
                        // Did it commit? Ask once the server answers again.
                        while Date() < deadline {
                            if let n = try? c.read({ tx in try CustodyChain.events(forObject: "e-\(i)", in: tx).count }) {
                                if n == 1 { i += 1 }
                                break
                            }
                            Thread.sleep(forTimeInterval: 0.05)
                        }
                    }
                }
            }
        }
        let finished = DispatchGroup()
        finished.enter()
        Thread {
            defer { finished.leave() }
            do { try writer() } catch { failure.withLock { $0 = "\(error)" } }
        }.start()
        // Restart once the writer is well under way.
        #expect(Probe.poll(60) { written.withLock { $0 } >= 40 })
        down()
        Thread.sleep(forTimeInterval: 0.3)
        _ = try up()
        finished.wait()
        #expect(failure.withLock { $0 } == nil)
        #expect(written.withLock { $0 } == total)
        let seen = codes.withLock { $0 }
        #expect(!seen.isEmpty, "the restart did not interrupt the writer")
        #expect(seen.allSatisfy { [.connectionLost, .connectionFailed, .commitOutcomeUnknown].contains($0) }, "\(seen)")
        #expect(db.test.custodyVerdict() == "\(total)|\(total)|1|\(total)|0|t")
        let perObject = db.test.psql("SELECT count(DISTINCT object_id), max(n) FROM (SELECT object_id, count(*) AS n FROM custody_objects GROUP BY 1) o").output
        #expect(perObject == "\(total)|1")
        let tally = Dictionary(seen.map { ($0.rawValue, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
        print("ServerRestartTests.aWriterRidesThroughARestart: failures seen \(tally.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))")
    }
}
