import Archive
import Foundation
import Ground
import Postgres
import Query

extension PostgresRecordStore {
    /// One READ COMMITTED write transaction on the connection; custody appends take the chain's
    /// advisory lock as `put(_:custody:)` does. A writer's `get` locks the record (ID and row), so two
    /// writers can wait for each other (one holding the chain's lock, the other a row it
    /// needs): the server breaks such a deadlock by aborting one, whose body is run again
    /// (`RetryPolicy.standard`; the protocol's bodies are re-runnable).
    public func write<R>(_ body: (any RecordWriter<IndexedRecord>) throws -> R) throws -> R {
        try connection.transaction(TransactionOptions(retry: .standard)) { tx in try body(PostgresRecordWriter(tx: tx)) }
    }
}

/// `RecordWriter` inside one PostgreSQL transaction.
struct PostgresRecordWriter: RecordWriter {
    let tx: Transaction

    /// Locks the record — its ID's advisory lock, then its row — until the transaction ends:
    /// two writers that read, change and put back one record (two `analyze` runs, two workers
    /// committing two variants of a record neither has seen yet) run one after the other, the
    /// second reading the first's committed version — no lost update (LMDB has one writer at a
    /// time).
    func get(recordId: ContentID) throws -> IndexedRecord? { try RecordTable.get(recordId: recordId, in: tx, forUpdate: true) }

    func put(_ record: IndexedRecord) throws { try RecordTable.put(record, in: tx) }

    @discardableResult
    func putReport(_ bytes: Data) throws -> ContentID { try RecordTable.putReport(Array(bytes), in: tx) }

    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try events.map { try PostgresCustodyStore.append($0, in: tx) }
    }
}
