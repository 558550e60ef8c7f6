import Archive
import ArchiveLMDB
import CAS
import Foundation
import LMDB
import Query

/// The parts of one archive that ingest writes: the blob store (the archive's LMDB content
/// store, or an S3 bucket with its ledger in the same environment: `init --blobs`), and in the
/// store's single LMDB environment the record index, the custody log and the stored trust
/// anchors.
public final class Archive: Sendable {
    public let store: ContentStore
    public let index: RecordIndex
    public let custody: CustodyLog
    public let trust: TrustStore
    /// Where blobs live (docs/archive.md): every blob read or written by ingest, reverify,
    /// export and the CLI goes through it.
    public let blobs: any BlobStaging
    /// The record index and custody log as a `RecordStore`: a record and its custody events in
    /// one write transaction.
    public let records: any RecordStore<IndexedRecord>
    /// The record, custody and trust stores when they live outside the environment
    /// (PostgreSQL: `init --index`); nil: the environment's own.
    public let indexStores: IndexStores?

    /// Opens (creating when missing) the index, custody and trust databases of `store`; blobs
    /// in `blobs`, by default the store's own LMDB chunks; records, custody and trust in
    /// `indexStores` when given. Call outside any transaction.
    public init(store: ContentStore, blobs: (any BlobStaging)? = nil, indexStores: IndexStores? = nil) throws {
        self.store = store
        index = try RecordIndex(environment: store.environment)
        custody = try CustodyLog(environment: store.environment)
        trust = try TrustStore(environment: store.environment)
        self.blobs = blobs ?? LMDBBlobStore(store)
        self.indexStores = indexStores
        records = indexStores?.records ?? LMDBRecordStore(index: index, custody: custody)
    }

    public var environment: Environment { store.environment }
}

/// An archive's records, custody log and trust anchors kept outside its LMDB environment
/// (PostgreSQL, docs/postgres.md): what the command line opens when `archive.json` has an `index`.
public struct IndexStores: Sendable {
    public let records: any RecordStore<IndexedRecord>
    public let custody: any CustodyStore
    public let trust: any TrustAnchorStore

    public init(records: any RecordStore<IndexedRecord>, custody: any CustodyStore, trust: any TrustAnchorStore) {
        (self.records, self.custody, self.trust) = (records, custody, trust)
    }
}
