import Archive
import Foundation
import Ground
import LMDB
import Query

/// LMDB's records and index as the archive's `RecordStore`: Query's `RecordIndex` (the same
/// `idx.*` databases and bytes, no behaviour changed) with the custody log of the same
/// environment, so a record and its custody events commit in one write transaction.
public final class LMDBRecordStore: RecordStore {
    public let index: RecordIndex
    public let custody: CustodyLog

    /// Over the record index and custody log of one archive environment.
    public init(index: RecordIndex, custody: CustodyLog) {
        self.index = index
        self.custody = custody
    }

    @discardableResult
    public func put(_ record: IndexedRecord, custody events: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try storage {
            try index.environment.write { txn in
                try index.put(record, in: txn)
                return try events.map { try custody.append($0, in: txn) }
            }
        }
    }

    @discardableResult
    public func putReport(_ bytes: Data) throws -> ContentID {
        try storage { try index.environment.write { txn in try index.putReport(bytes, in: txn) } }
    }

    public func report(_ id: ContentID, of recordId: ContentID) throws -> Data {
        try storage { try index.environment.read { txn in try index.report(id, of: recordId, in: txn) } }
    }

    public func get(recordId: ContentID) throws -> IndexedRecord? { try index.get(recordId: recordId) }

    public func records(_ ids: [ContentID], damaged: (ContentID, any NamedError) -> Void) throws -> [IndexedRecord] {
        try index.records(ids) { id, error in damaged(id, error) }
    }

    public func contains(recordId: ContentID) throws -> Bool { try index.contains(recordId: recordId) }

    public func recordId(forVariant blobId: ContentID) throws -> ContentID? { try index.recordId(forVariant: blobId) }

    public func recordIds(withPrefix prefix: String, limit: Int) throws -> [ContentID] {
        try index.recordIds(withPrefix: prefix, limit: limit)
    }

    public func query(_ filter: RecordFilter, limit: Int?) throws -> QueryResult { try index.query(filter, limit: limit) }

    public func count(_ filter: RecordFilter) throws -> QueryCount { try index.count(filter) }

    public func recordCount() throws -> Int { try index.count }

    @discardableResult
    public func remove(recordId: ContentID) throws -> Bool {
        try storage { try index.environment.write { txn in try index.remove(recordId: recordId, in: txn) } }
    }

    public func audit() throws -> RecordAudit {
        let found = try index.auditRecords()
        return RecordAudit(checked: found.checked, damaged: found.damaged.map {
            RecordDamage(recordId: $0.recordId, reportId: $0.reportId, error: $0.error)
        })
    }

    /// Runs `body`, an LMDB failure thrown as the index's `index.storage` (as `RecordIndex` does).
    func storage<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as LMDBError { throw QueryError.storage(e) }
    }
}
