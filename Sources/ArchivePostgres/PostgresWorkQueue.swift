import Archive
import Foundation
import Postgres

/// The archive's work queue (`Archive`'s `WorkQueue`) in PostgreSQL, migration 4's `work_jobs`:
/// one job per capture, claimed by any number of workers on any number of machines. The
/// instance is the protocol's, on a connection of its own (`PostgresWorkQueue+Queue.swift`);
/// the static functions are the SQL, inside a transaction the caller holds.
///
/// A job is `pending` → `running` (leased to one worker until `lease_expires`) → `done` or
/// `failed`. `claim` takes the oldest ready jobs with `FOR UPDATE SKIP LOCKED` (two workers
/// never wait for or take the same job) and leases them for `lease` seconds; a worker renews
/// its lease while it works (`renew`) and ends the job with `complete` — in the transaction that
/// commits the job's result, so the result and "done" commit together — or `fail`. A job whose
/// worker died is claimed again once its lease has run out (its `attempts` grows); one that ran
/// out of attempts that way is marked failed. Every lease is fenced by its attempt number: a
/// worker whose lease was taken over gets `queue.lease.lost` from `renew`, `complete` and `fail`,
/// and must roll back. Times are the database server's clock (`now()`), so the workers' clocks
/// never matter.
public final class PostgresWorkQueue: Sendable {
    public typealias Lease = WorkLease
    public typealias Job = WorkJob
    public typealias State = WorkJobState
    public typealias Summary = WorkQueueSummary

    /// The queue's connection (its own: `ArchiveOpener.workQueue()` makes one per queue).
    public let connection: Connection
    /// The archive's schema the connection's session is on.
    public let schema: ArchiveSchema

    public init(connection: Connection, schema: ArchiveSchema) {
        (self.connection, self.schema) = (connection, schema)
    }

    /// Registers jobs by `key` (the capture's identity) with their payload (JSON). A key already
    /// queued is left alone — except a failed one when `retryFailed`, which becomes pending again
    /// with its attempts reset. Returns how many were added and how many re-queued.
    @discardableResult
    public static func enqueue(_ jobs: [(key: String, payload: String)], maxAttempts: Int = WorkJob.defaultMaxAttempts, retryFailed: Bool = false,
                               in tx: Transaction) throws -> (added: Int, requeued: Int) {
        guard !jobs.isEmpty else { return (0, 0) }
        let rows = try tx.execute("""
            INSERT INTO work_jobs (key, payload, max_attempts)
            SELECT k, p::jsonb, $3 FROM unnest($1::text[], $2::text[]) AS u (k, p)
            ON CONFLICT (key) DO UPDATE SET state = 'pending', attempts = 0, error = NULL, result = NULL,
                ready_at = now(), enqueued_at = now(), started_at = NULL, finished_at = NULL, worker = NULL,
                max_attempts = EXCLUDED.max_attempts, payload = EXCLUDED.payload
                WHERE $4 AND work_jobs.state = 'failed'
            RETURNING (xmax = 0) AS inserted
            """, [.textArray(jobs.map(\.key)), .textArray(jobs.map(\.payload)), .int32(Int32(max(1, maxAttempts))), .bool(retryFailed)])
        let added = try rows.filter { try $0.decode(0, as: Bool.self) }.count
        return (added, rows.count - added)
    }

    /// Leases up to `limit` ready jobs to `worker` for `lease` seconds, oldest first: pending
    /// jobs whose `ready_at` has come, and running jobs whose lease ran out (their worker is
    /// gone) that have attempts left. Running jobs whose lease ran out on their last attempt
    /// are marked failed first. Locked rows are skipped, never waited for.
    public static func claim(worker: String, lease: Double, limit: Int = 1, in tx: Transaction) throws -> [Lease] {
        try tx.execute("""
            UPDATE work_jobs SET state = 'failed', lease_expires = NULL, finished_at = now(),
                error = format('lease of %s expired on attempt %s of %s', coalesce(worker, 'a worker'), attempts, max_attempts)
            WHERE state = 'running' AND lease_expires < now() AND attempts >= max_attempts
            """)
        return try tx.execute("""
            WITH next AS (
                SELECT id FROM work_jobs
                WHERE (state = 'pending' AND ready_at <= now())
                   OR (state = 'running' AND lease_expires < now() AND attempts < max_attempts)
                ORDER BY id LIMIT $3
                FOR UPDATE SKIP LOCKED
            )
            UPDATE work_jobs j SET state = 'running', attempts = j.attempts + 1, worker = $1,
                lease_expires = now() + make_interval(secs => $2), started_at = now()
            FROM next WHERE j.id = next.id
            RETURNING j.id, j.key, j.payload::text, j.attempts, j.lease_expires
            """, [.text(worker), .float64(lease), .int64(Int64(max(0, limit)))]).map { row in
            Lease(jobId: try row.decode(0), key: try row.decode(1), payload: try row.decode(2),
                  attempt: try row.decode(3), expires: try row.decode(4))
        }.sorted { $0.jobId < $1.jobId }
    }

    /// Extends the lease by `lease` seconds from now; `queue.lease.lost` when it is no longer
    /// this attempt's.
    @discardableResult
    public static func renew(_ lease: Lease, for seconds: Double, in tx: Transaction) throws -> Lease {
        let rows = try tx.execute("""
            UPDATE work_jobs SET lease_expires = now() + make_interval(secs => $3)
            WHERE id = $1 AND attempts = $2 AND state = 'running' RETURNING lease_expires
            """, [.int64(lease.jobId), .int32(Int32(lease.attempt)), .float64(seconds)])
        guard let row = try rows.single() else { throw ArchivePostgresError.leaseLost(jobId: lease.jobId, attempt: lease.attempt) }
        return Lease(jobId: lease.jobId, key: lease.key, payload: lease.payload, attempt: lease.attempt, expires: try row.decode(0))
    }

    /// Marks the job done with `result` (e.g. the record ID), in the transaction that commits
    /// that result; `queue.lease.lost` (roll back) when the lease is no longer this attempt's.
    public static func complete(_ lease: Lease, result: String? = nil, in tx: Transaction) throws {
        let n = try tx.execute("""
            UPDATE work_jobs SET state = 'done', lease_expires = NULL, finished_at = now(), result = $3, error = NULL
            WHERE id = $1 AND attempts = $2 AND state = 'running'
            """, [.int64(lease.jobId), .int32(Int32(lease.attempt)), result.map(SQLValue.text) ?? .null]).affected
        if n != 1 { throw ArchivePostgresError.leaseLost(jobId: lease.jobId, attempt: lease.attempt) }
    }

    /// Records a failed attempt with its error text: the job is pending again after
    /// `retryAfter` seconds while it has attempts left and the failure is not `permanent`, else
    /// failed. Returns the job's new state; `queue.lease.lost` when the lease is not this attempt's.
    @discardableResult
    public static func fail(_ lease: Lease, error: String, permanent: Bool = false, retryAfter: Double = 0,
                            in tx: Transaction) throws -> State {
        let rows = try tx.execute("""
            UPDATE work_jobs SET lease_expires = NULL, error = $3,
                state = CASE WHEN $4 OR attempts >= max_attempts THEN 'failed' ELSE 'pending' END,
                finished_at = CASE WHEN $4 OR attempts >= max_attempts THEN now() END,
                ready_at = now() + make_interval(secs => $5)
            WHERE id = $1 AND attempts = $2 AND state = 'running' RETURNING state
            """, [.int64(lease.jobId), .int32(Int32(lease.attempt)), .text(error), .bool(permanent), .float64(retryAfter)])
        guard let row = try rows.single() else { throw ArchivePostgresError.leaseLost(jobId: lease.jobId, attempt: lease.attempt) }
        let state = try row.decode(0, as: String.self)
        guard let s = State(rawValue: state) else { throw ArchivePostgresError.damagedRow("job \(lease.jobId) in state \(state)") }
        return s
    }

    /// Jobs counted by state.
    public static func summary(in tx: Transaction) throws -> Summary {
        var s = Summary()
        for row in try tx.execute("""
            SELECT state, count(*), count(*) FILTER (WHERE state = 'running' AND lease_expires < now()) FROM work_jobs GROUP BY state
            """) {
            let n = try row.decode(1, as: Int.self)
            switch try row.decode(0, as: String.self) {
            case "pending": s.pending = n
            case "running": s.running = n; s.expired = try row.decode(2, as: Int.self)
            case "done": s.done = n
            case "failed": s.failed = n
            case let other: throw ArchivePostgresError.damagedRow("jobs in state \(other)")
            }
        }
        return s
    }

    /// The jobs in `states` (all when empty), oldest first, at most `limit`.
    public static func jobs(states: [State] = [], limit: Int = 1000, in tx: Transaction) throws -> [Job] {
        try tx.execute("""
            SELECT id, key, state, attempts, max_attempts, worker, error, result,
                   coalesce(state = 'running' AND lease_expires < now(), false)
            FROM work_jobs WHERE cardinality($1::text[]) = 0 OR state = ANY ($1) ORDER BY id LIMIT $2
            """, [.textArray(states.map(\.rawValue)), .int64(Int64(limit))]).map { row in
            let state = try row.decode(2, as: String.self)
            guard let s = State(rawValue: state) else { throw ArchivePostgresError.damagedRow("job in state \(state)") }
            return Job(id: try row.decode(0), key: try row.decode(1), state: s, attempts: try row.decode(3),
                       maxAttempts: try row.decode(4), worker: try row.decode(5), error: try row.decode(6),
                       result: try row.decode(7), leaseExpired: try row.decode(8))
        }
    }
}
