import Archive
import Postgres
import Query

extension WorkQueue {
    /// `complete(_:result:in:)` inside a `PostgresRecordStore.write` transaction: the job is
    /// done exactly when what `writer` wrote commits (`queue.lease.lost` rolls it back). Another
    /// store's writer is `pg.misuse`: its commit could not include the job.
    public static func complete(_ lease: Lease, result: String? = nil, in writer: any RecordWriter<IndexedRecord>) throws {
        guard let pg = writer as? PostgresRecordWriter else {
            throw PostgresError(.misuse, message: "a job completes only in a PostgreSQL record transaction")
        }
        try complete(lease, result: result, in: pg.tx)
    }
}
