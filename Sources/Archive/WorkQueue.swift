import Foundation

/// The archive's shared work queue (issue 14 §1): one job per capture, claimed by any number of
/// workers on any number of machines. What `ingest --enqueue`, `worker` and `queue` use;
/// PostgreSQL's `PostgresWorkQueue` is the one implementation (an archive with an index has one;
/// `ArchiveOpener.workQueue()` opens it, each call on a connection of its own).
///
/// A job is `pending` → `running` (leased to one worker until its lease runs out) → `done` or
/// `failed`. Two workers never take the same job; a worker renews its lease while it works and
/// ends the job with `complete` — in the record transaction that commits the job's result, so
/// the result and "done" commit together — or `fail`. A job whose worker died is claimed again
/// once its lease has run out. Every lease is fenced by its attempt number: a worker whose
/// lease was taken over gets `queue.lease.lost` from `renew`, `complete` and `fail`, and must
/// roll back.
public protocol WorkQueue: AnyObject, Sendable {
    /// Where the queue is, as `ingest --enqueue --json` names it (PostgreSQL: the schema).
    var namespace: String { get }

    /// Registers jobs by `key` (the capture's identity) with their payload (JSON). A key already
    /// queued is left alone — except a failed one when `retryFailed`, which becomes pending again
    /// with its attempts reset. Returns how many were added and how many re-queued.
    func enqueue(_ jobs: [(key: String, payload: String)], maxAttempts: Int, retryFailed: Bool) throws -> (added: Int, requeued: Int)

    /// Leases up to `limit` ready jobs to `worker` for `lease` seconds, oldest first; jobs of
    /// workers whose lease ran out are among them while they have attempts left.
    func claim(worker: String, lease: Double, limit: Int) throws -> [WorkLease]

    /// Extends the lease by `seconds` from now; `queue.lease.lost` when it is no longer this attempt's.
    func renew(_ lease: WorkLease, for seconds: Double) throws -> WorkLease

    /// Marks the job done with `result` (e.g. the record ID) inside `writer`'s transaction: the
    /// job is done exactly when what `writer` wrote commits (`queue.lease.lost` rolls it back).
    /// A writer of a store whose commit cannot include the job is refused.
    func complete(_ lease: WorkLease, result: String?, in writer: any RecordWriter) throws

    /// Records a failed attempt with its error text: the job is pending again after `retryAfter`
    /// seconds while it has attempts left and the failure is not `permanent`, else failed.
    /// Returns the job's new state; `queue.lease.lost` when the lease is not this attempt's.
    func fail(_ lease: WorkLease, error: String, permanent: Bool, retryAfter: Double) throws -> WorkJobState

    /// Jobs counted by state.
    func summary() throws -> WorkQueueSummary

    /// The counts by state and, as of the same moment, at most `limit` jobs in `state`, oldest
    /// first — with `expiredOnly` (and `state` running), only those whose lease ran out.
    func snapshot(state: WorkJobState, expiredOnly: Bool, limit: Int) throws -> (summary: WorkQueueSummary, jobs: [WorkJob])

    /// True when an operation of this queue that threw `error` may succeed when run again (the
    /// server restarting, a serialization failure, the connection lost during a COMMIT): every
    /// operation above is safe to run again, fenced by the lease's attempt.
    func mayRetry(after error: any Error) -> Bool
}

/// A job as a worker holds it.
public struct WorkLease: Sendable, Equatable {
    public let jobId: Int64
    public let key: String
    /// The job's payload (JSON text).
    public let payload: String
    /// Which attempt this is (1 for the first claim): the lease's fencing token.
    public let attempt: Int
    public let expires: Date

    public init(jobId: Int64, key: String, payload: String, attempt: Int, expires: Date) {
        (self.jobId, self.key, self.payload, self.attempt, self.expires) = (jobId, key, payload, attempt, expires)
    }
}

/// One job as the queue lists it.
public struct WorkJob: Sendable, Equatable {
    public let id: Int64
    public let key: String
    public let state: WorkJobState
    public let attempts: Int
    public let maxAttempts: Int
    public let worker: String?
    public let error: String?
    public let result: String?
    /// For a running job: true when its lease has run out (its worker is presumably gone).
    public let leaseExpired: Bool

    /// The attempts a job gets unless its enqueuer says otherwise (`ingest --enqueue`: these).
    public static let defaultMaxAttempts = 5

    public init(id: Int64, key: String, state: WorkJobState, attempts: Int, maxAttempts: Int, worker: String?, error: String?,
                result: String?, leaseExpired: Bool) {
        (self.id, self.key, self.state, self.attempts, self.maxAttempts) = (id, key, state, attempts, maxAttempts)
        (self.worker, self.error, self.result, self.leaseExpired) = (worker, error, result, leaseExpired)
    }
}

/// A job's state.
public enum WorkJobState: String, Sendable, CaseIterable {
    case pending, running, done, failed
}

/// How many jobs are in each state (`running` includes `expired`, whose lease has run out).
public struct WorkQueueSummary: Sendable, Equatable {
    public var pending, running, done, failed, expired: Int
    public var total: Int { pending + running + done + failed }

    public init(pending: Int = 0, running: Int = 0, done: Int = 0, failed: Int = 0, expired: Int = 0) {
        (self.pending, self.running, self.done, self.failed, self.expired) = (pending, running, done, failed, expired)
    }
}
