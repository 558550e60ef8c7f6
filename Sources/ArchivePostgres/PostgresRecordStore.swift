import Archive
import Foundation
import Ground
import Postgres
import Query

/// The archive's records and index in PostgreSQL, as a `RecordStore`: `RecordTable`'s SQL,
/// each call one transaction on `connection` (READ ONLY REPEATABLE READ for reads, READ
/// COMMITTED for writes), a record and its custody events (`CustodyChain`, under the chain's
/// advisory lock) in one. Content-addressed like LMDB's index (migration 6): reads re-hash the
/// body and the report and refuse a mismatch with `index.record.damaged`. The connection's
/// calls are serialized (one at a time); give each thread or worker a store of its own for
/// parallel work. The schema must be at the tool's version (`ArchiveSchema.check`).
public final class PostgresRecordStore: RecordStore {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    @discardableResult
    public func put(_ record: IndexedRecord, custody: [CustodyAppend]) throws -> [StoredCustodyEvent] {
        try connection.write { tx in
            try RecordTable.put(record, in: tx)
            return try custody.map { try PostgresCustodyStore.append($0, in: tx) }
        }
    }

    @discardableResult
    public func putReport(_ bytes: Data) throws -> ContentID {
        try connection.write { tx in try RecordTable.putReport(Array(bytes), in: tx) }
    }

    public func report(_ id: ContentID, of recordId: ContentID) throws -> Data {
        Data(try connection.read { tx in try RecordTable.report(id, of: recordId, in: tx) })
    }

    public func get(recordId: ContentID) throws -> IndexedRecord? {
        try connection.read { tx in try RecordTable.get(recordId: recordId, in: tx) }
    }

    public func records(_ ids: [ContentID], damaged: (ContentID, any NamedError) -> Void) throws -> [IndexedRecord] {
        try connection.read { tx in try RecordTable.records(ids, in: tx) { id, error in damaged(id, error) } }
    }

    public func contains(recordId: ContentID) throws -> Bool {
        try connection.read { tx in try RecordTable.contains(recordId: recordId, in: tx) }
    }

    public func recordId(forVariant blobId: ContentID) throws -> ContentID? {
        try connection.read { tx in try RecordTable.recordId(forVariant: blobId, in: tx) }
    }

    public func recordIds(withPrefix prefix: String, limit: Int) throws -> [ContentID] {
        try connection.read { tx in try RecordTable.recordIds(withPrefix: prefix, limit: limit, in: tx) }
    }

    public func query(_ filter: RecordFilter, limit: Int?) throws -> QueryResult {
        try connection.read { tx in try RecordTable.query(filter, limit: limit, in: tx) }
    }

    public func count(_ filter: RecordFilter) throws -> QueryCount {
        try connection.read { tx in try RecordTable.count(filter, in: tx) }
    }

    public func recordCount() throws -> Int {
        try connection.read { tx in try RecordTable.count(in: tx) }
    }

    @discardableResult
    public func remove(recordId: ContentID) throws -> Bool {
        try connection.write { tx in try RecordTable.remove(recordId: recordId, in: tx) }
    }

    public func audit() throws -> RecordAudit {
        try connection.read { tx in try RecordTable.audit(in: tx) }
    }
}
