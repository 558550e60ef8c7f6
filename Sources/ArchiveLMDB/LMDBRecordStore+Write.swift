import Archive
import Foundation
import Ground
import LMDB
import Query

extension LMDBRecordStore {
    /// One LMDB write transaction over the index and the custody log (re-run when the map
    /// grows); an LMDB failure is thrown as it is, so a caller can tell storage failures apart.
    public func write<R>(_ body: (any RecordWriter<IndexedRecord>) throws -> R) throws -> R {
        try index.environment.write { txn in try body(LMDBRecordWriter(index: index, custody: custody, txn: txn)) }
    }
}

/// `RecordWriter` inside one LMDB write transaction.
struct LMDBRecordWriter: RecordWriter {
    let index: RecordIndex
    let custody: CustodyLog
    let txn: Transaction

    func get(recordId: ContentID) throws -> IndexedRecord? { try index.get(recordId: recordId, in: txn) }

    func put(_ record: IndexedRecord) throws { try index.put(record, in: txn) }

    @discardableResult
    func putReport(_ bytes: Data) throws -> ContentID { try index.putReport(bytes, in: txn) }

    @discardableResult
    func append(_ events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try events.map { try custody.append($0, in: txn) }
    }
}
