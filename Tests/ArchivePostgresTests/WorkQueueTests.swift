import ArchiveContract
import ArchivePostgres
import Foundation
import Postgres
import Synchronization
import Testing

/// The work queue with several connections and threads against the real server; psql (another
/// process) stands in for a worker that claims a job and dies.
@Suite struct WorkQueueTests {
    let db: MigratedSchema
    init() throws { db = try MigratedSchema() }

    @discardableResult
    func enqueue(_ n: Int, maxAttempts: Int = 5, prefix: String = "capture") throws -> (added: Int, requeued: Int) {
        try db.connection.write { tx throws in
            try PostgresWorkQueue.enqueue((0..<n).map { ("\(prefix)-\($0)", "{\"capture\": \"dump/\(prefix)-\($0)\"}") }, maxAttempts: maxAttempts, in: tx)
        }
    }

    func claim(_ c: Connection, _ worker: String, lease: Double = 30, limit: Int = 1) throws -> [PostgresWorkQueue.Lease] {
        try c.write { tx in try PostgresWorkQueue.claim(worker: worker, lease: lease, limit: limit, in: tx) }
    }

    func summary() throws -> PostgresWorkQueue.Summary { try db.connection.read { try PostgresWorkQueue.summary(in: $0) } }

    @Test func enqueueingTheSameCapturesAgainAddsNothing() throws {
        #expect(try enqueue(50) == (50, 0))
        #expect(try enqueue(50) == (0, 0))
        #expect(try enqueue(60) == (10, 0))
        #expect(try summary() == PostgresWorkQueue.Summary(pending: 60))
        let first = try #require(try claim(db.connection, "w").first)
        #expect(first.key == "capture-0" && first.attempt == 1)
        #expect(first.payload.contains("\"capture\": \"dump/capture-0\""))
    }

    /// Four workers drain 200 jobs: each job is claimed once and done once.
    @Test func workersTakeEveryJobExactlyOnce() throws {
        try enqueue(200)
        let db = self.db
        let claims = Mutex([Int64]())
        let failures = onThreads(4) { w in
            let c = try db.connect()
            while true {
                let leases = try c.write { tx in try PostgresWorkQueue.claim(worker: "worker-\(w)", lease: 30, limit: 3, in: tx) }
                if leases.isEmpty { return }
                for l in leases {
                    #expect(l.attempt == 1)
                    try c.write { tx in try PostgresWorkQueue.complete(l, result: "by worker-\(w)", in: tx) }
                }
                claims.withLock { $0 += leases.map(\.jobId) }
            }
        }
        #expect(failures == [])
        let ids = claims.withLock { $0 }
        #expect(ids.count == 200 && Set(ids).count == 200)
        #expect(try summary() == PostgresWorkQueue.Summary(done: 200))
        #expect(db.psql("SELECT count(*), count(DISTINCT worker) > 1 FROM work_jobs WHERE state = 'done' AND attempts = 1 AND result LIKE 'by worker-%'").output == "200|t")
    }

    /// A worker inside its claiming transaction holds its rows; another worker's claim skips
    /// them at once instead of waiting (a lock wait would time out here).
    @Test func claimsSkipLockedRowsInsteadOfWaiting() throws {
        try enqueue(3)
        let other = try db.connect()
        try db.connection.write { tx throws in
            let mine = try PostgresWorkQueue.claim(worker: "a", lease: 30, limit: 1, in: tx)
            #expect(mine.map(\.key) == ["capture-0"])
            let theirs = try other.write { o throws in
                try o.setLocal("lock_timeout", "500ms")
                return try PostgresWorkQueue.claim(worker: "b", lease: 30, limit: 5, in: o)
            }
            #expect(theirs.map(\.key) == ["capture-1", "capture-2"])
        }
    }

    /// A worker (psql, another process) claims a job and dies. Nobody else gets it while its
    /// lease runs; once it has run out the next claim takes it (attempt 2), and the dead worker's
    /// lease is no longer good for anything.
    @Test func aDeadWorkersJobIsTakenAgainWhenItsLeaseRunsOut() throws {
        try enqueue(1)
        let claimed = db.psql("""
            UPDATE work_jobs SET state = 'running', attempts = attempts + 1, worker = 'psql',
                lease_expires = now() + interval '600 milliseconds', started_at = now()
            WHERE id = (SELECT id FROM work_jobs WHERE state = 'pending' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id, attempts
            """)
        #expect(claimed.status == 0, "\(claimed.stderr)")
        let fields = claimed.output.split(separator: "|")
        let dead = PostgresWorkQueue.Lease(jobId: Int64(fields.first ?? "") ?? 0, key: "capture-0", payload: "{}",
                                   attempt: Int(fields.last ?? "") ?? 0, expires: Date())
        #expect(dead.attempt == 1)
        #expect(try claim(db.connection, "b") == [])
        #expect(try summary() == PostgresWorkQueue.Summary(running: 1))
        Thread.sleep(forTimeInterval: 0.8)
        #expect(try summary() == PostgresWorkQueue.Summary(running: 1, expired: 1))
        let taken = try #require(try claim(db.connection, "b").first)
        #expect(taken.jobId == dead.jobId && taken.attempt == 2)
        #expect(throws: ArchivePostgresError.leaseLost(jobId: dead.jobId, attempt: 1)) {
            try db.connection.write { tx in try PostgresWorkQueue.complete(dead, in: tx) }
        }
        #expect(throws: ArchivePostgresError.leaseLost(jobId: dead.jobId, attempt: 1)) {
            try db.connection.write { tx in try PostgresWorkQueue.renew(dead, for: 10, in: tx) }
        }
        try db.connection.write { tx in try PostgresWorkQueue.complete(taken, result: "ok", in: tx) }
        #expect(try summary() == PostgresWorkQueue.Summary(done: 1))
    }

    /// A worker that renews its lease keeps its job however long it works.
    @Test func renewingTheLeaseKeepsTheJob() throws {
        try enqueue(1)
        var lease = try #require(try claim(db.connection, "a", lease: 0.5).first)
        let other = try db.connect()
        let start = Date()
        while Date().timeIntervalSince(start) < 1.5 {
            lease = try db.connection.write { tx in try PostgresWorkQueue.renew(lease, for: 0.5, in: tx) }
            #expect(try claim(other, "b") == [])
            Thread.sleep(forTimeInterval: 0.15)
        }
        #expect(lease.expires > start.addingTimeInterval(1.5))
        try db.connection.write { tx in try PostgresWorkQueue.complete(lease, in: tx) }
        #expect(db.psql("SELECT state, attempts, worker FROM work_jobs").output == "done|1|a")
    }

    @Test func failedAttemptsAreRetriedThenFailWithTheirError() throws {
        try enqueue(2, maxAttempts: 2)
        let c = db.connection
        var l = try #require(try claim(c, "w").first)
        #expect(try c.write { tx in try PostgresWorkQueue.fail(l, error: "boom 1", in: tx) } == .pending)
        l = try #require(try claim(c, "w").first)
        #expect(l.key == "capture-0" && l.attempt == 2)
        #expect(try c.write { tx in try PostgresWorkQueue.fail(l, error: "boom 2", in: tx) } == .failed)
        l = try #require(try claim(c, "w").first)
        #expect(l.key == "capture-1")
        #expect(try c.write { tx in try PostgresWorkQueue.fail(l, error: "not a capture", permanent: true, in: tx) } == .failed)
        let failed = try c.read { tx in try PostgresWorkQueue.jobs(states: [.failed], in: tx) }
        #expect(failed.map(\.error) == ["boom 2", "not a capture"])
        #expect(failed.map(\.attempts) == [2, 1])
        #expect(try summary() == PostgresWorkQueue.Summary(failed: 2))
        // Enqueued again with retryFailed, both are pending afresh; without it nothing changes.
        #expect(try enqueue(2) == (0, 0))
        #expect(try db.connection.write { tx throws in
            try PostgresWorkQueue.enqueue([("capture-0", "{}"), ("capture-1", "{}")], retryFailed: true, in: tx)
        } == (0, 2))
        #expect(db.psql("SELECT string_agg(state || ':' || attempts || ':' || coalesce(error, '-'), ',' ORDER BY id) FROM work_jobs").output
                == "pending:0:-,pending:0:-")
    }

    @Test func aRetryCanWait() throws {
        try enqueue(1)
        let l = try #require(try claim(db.connection, "w").first)
        try db.connection.write { tx in _ = try PostgresWorkQueue.fail(l, error: "server restarted", retryAfter: 0.5, in: tx) }
        #expect(try claim(db.connection, "w") == [])
        Thread.sleep(forTimeInterval: 0.7)
        #expect(try claim(db.connection, "w").first?.attempt == 2)
    }

    /// A job whose worker died on its last attempt is failed, with a message naming the worker.
    @Test func aLeaseThatRunsOutOnTheLastAttemptFailsTheJob() throws {
        try enqueue(1, maxAttempts: 1)
        _ = try claim(db.connection, "w1", lease: 0.3)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try claim(db.connection, "w2") == [])
        let job = try #require(try db.connection.read { try PostgresWorkQueue.jobs(in: $0) }.first)
        #expect(job.state == .failed && job.error == "lease of w1 expired on attempt 1 of 1")
    }

    /// "Done" commits with the job's result, or neither does: a worker whose lease was taken
    /// over cannot commit its result.
    @Test func theResultAndDoneCommitTogether() throws {
        try enqueue(2)
        let c = db.connection
        let first = try #require(try claim(c, "a").first)
        let record = RecordSamples.record(1)
        try c.write { tx throws in
            try RecordTable.put(record, in: tx)
            try PostgresWorkQueue.complete(first, result: record.recordId.hex, in: tx)
        }
        #expect(db.psql("SELECT state, result = encode(r.record_id, 'hex') FROM work_jobs j, records r WHERE j.id = \(first.jobId)").output == "done|t")
        let stale = try #require(try claim(c, "a", lease: 0.2).first)
        Thread.sleep(forTimeInterval: 0.4)
        let fresh = try #require(try claim(try db.connect(), "b").first)
        #expect(fresh.jobId == stale.jobId)
        let late = RecordSamples.record(2)
        #expect(throws: ArchivePostgresError.leaseLost(jobId: stale.jobId, attempt: 1)) {
            try c.write { tx throws in
                try RecordTable.put(late, in: tx)
                try PostgresWorkQueue.complete(stale, result: late.recordId.hex, in: tx)
            }
        }
        #expect(db.psql("SELECT count(*) FROM records").output == "1")
    }

    /// Three workers with short leases, each abandoning about one claimed job in five (as if it
    /// had been killed): every job ends done, none lost, the abandoned ones on a later attempt.
    @Test func workersThatDieLoseNoJob() throws {
        try enqueue(60, maxAttempts: 20)
        let db = self.db
        let abandoned = Mutex(Set<Int64>())
        let failures = onThreads(3) { w in
            let c = try db.connect()
            var r = RecordSamples.Rand(state: UInt64(w) + 99)
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                guard let l = try c.write({ tx in try PostgresWorkQueue.claim(worker: "w\(w)", lease: 0.25, limit: 1, in: tx) }).first else {
                    if try c.read({ try PostgresWorkQueue.summary(in: $0) }).done == 60 { return }
                    Thread.sleep(forTimeInterval: 0.05)
                    continue
                }
                if r.below(5) == 0 {
                    abandoned.withLock { _ = $0.insert(l.jobId) }
                    continue
                }
                try c.write { tx in try PostgresWorkQueue.complete(l, in: tx) }
            }
        }
        #expect(failures == [])
        #expect(try summary() == PostgresWorkQueue.Summary(done: 60))
        let retried = Set(db.psql("SELECT id FROM work_jobs WHERE attempts > 1").output.split(separator: "\n").compactMap { Int64($0) })
        #expect(retried == abandoned.withLock { $0 })
        #expect(!retried.isEmpty)
    }
}
