import Archive
import Postgres

/// `WorkQueue` on the queue's own connection: each operation one transaction of the SQL.
extension PostgresWorkQueue: WorkQueue {
    public var namespace: String { schema.namespace }

    public func enqueue(_ jobs: [(key: String, payload: String)], maxAttempts: Int, retryFailed: Bool) throws -> (added: Int, requeued: Int) {
        try connection.write { tx in try Self.enqueue(jobs, maxAttempts: maxAttempts, retryFailed: retryFailed, in: tx) }
    }

    public func claim(worker: String, lease: Double, limit: Int) throws -> [WorkLease] {
        try connection.write { tx in try Self.claim(worker: worker, lease: lease, limit: limit, in: tx) }
    }

    public func renew(_ lease: WorkLease, for seconds: Double) throws -> WorkLease {
        try connection.write { tx in try Self.renew(lease, for: seconds, in: tx) }
    }

    /// In `writer`'s transaction, which must be a `PostgresRecordStore.write`'s (`pg.misuse`
    /// otherwise: another store's commit could not include the job).
    public func complete(_ lease: WorkLease, result: String?, in writer: any RecordWriter) throws {
        guard let pg = writer as? PostgresRecordWriter else {
            throw PostgresError(.misuse, message: "a job completes only in a PostgreSQL record transaction")
        }
        try Self.complete(lease, result: result, in: pg.tx)
    }

    public func fail(_ lease: WorkLease, error: String, permanent: Bool, retryAfter: Double) throws -> WorkJobState {
        try connection.write { tx in try Self.fail(lease, error: error, permanent: permanent, retryAfter: retryAfter, in: tx) }
    }

    public func summary() throws -> WorkQueueSummary {
        try connection.read { tx in try Self.summary(in: tx) }
    }

    /// One read transaction. Expired jobs are running ones whose lease ran out: listed from all
    /// running ones, then the first `limit` of them kept.
    public func snapshot(state: WorkJobState, expiredOnly: Bool, limit: Int) throws -> (summary: WorkQueueSummary, jobs: [WorkJob]) {
        try connection.read { tx in
            let s = try Self.summary(in: tx)
            let listed = try Self.jobs(states: [state], limit: expiredOnly ? max(s.running, 1) : limit, in: tx)
            return (s, expiredOnly ? Array(listed.filter(\.leaseExpired).prefix(limit)) : listed)
        }
    }

    /// A retryable PostgreSQL error (`PostgresError.isRetryable`), or the connection broken
    /// during COMMIT (`pg.commit.unknown`, seen when the server restarts under a worker).
    public func mayRetry(after error: any Error) -> Bool {
        guard let e = error as? PostgresError else { return false }
        return e.isRetryable || e.code == .commitOutcomeUnknown
    }
}
