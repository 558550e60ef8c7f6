import Archive
import Foundation
import Ground
import Postgres
import Query

extension PostgresRecordStore {
    /// One READ COMMITTED write transaction on the connection; custody appends take the chain's
    /// advisory lock as `put(_:custody:)` does.
    public func write<R>(_ body: (any RecordWriter<IndexedRecord>) throws -> R) throws -> R {
        try connection.write { tx in try body(PostgresRecordWriter(tx: tx)) }
    }
}

/// `RecordWriter` inside one PostgreSQL transaction.
struct PostgresRecordWriter: RecordWriter {
    let tx: Transaction

    func get(recordId: ContentID) throws -> IndexedRecord? { try RecordTable.get(recordId: recordId, in: tx) }

    func put(_ record: IndexedRecord) throws { try RecordTable.put(record, in: tx) }

    @discardableResult
    func putReport(_ bytes: Data) throws -> ContentID { try RecordTable.putReport(Array(bytes), in: tx) }

    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try events.map { try PostgresCustodyStore.append($0, in: tx) }
    }
}
