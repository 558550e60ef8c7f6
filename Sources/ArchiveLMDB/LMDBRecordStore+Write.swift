import Archive
import CAS
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

extension LMDBRecordStore {
    /// Ingest's batch in **one** write transaction of this store's environment: `blobs`' staged
    /// blobs committed (and `releasing` given up) first, then `body` with, for each of `staged`,
    /// whether it is new, and the record writer. One durable commit instead of two: the blobs
    /// and the records naming them become visible together. Nil, with nothing written, when
    /// `blobs` does not keep its chunks in this environment (S3): the caller then commits blobs
    /// and records in two steps. An LMDB failure is thrown as it is (or as `cas.storage.*`).
    public func write<R>(committing staged: [BlobStage], releasing: [BlobStage], in blobs: any BlobStaging,
                         _ body: ([Bool], any RecordWriter<IndexedRecord>) throws -> R) throws -> R? {
        guard let lmdb = blobs as? LMDBBlobStore, lmdb.store.environment === index.environment else { return nil }
        return try index.environment.write { txn in
            let isNew = try lmdb.commit(staged, releasing: releasing, in: txn)
            return try body(isNew, LMDBRecordWriter(index: index, custody: custody, txn: txn))
        }
    }
}
