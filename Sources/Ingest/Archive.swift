import Archive
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

    /// Opens (creating when missing) the index, custody and trust databases of `store`; blobs
    /// in `blobs`, by default the store's own LMDB chunks. Call outside any transaction.
    public init(store: ContentStore, blobs: (any BlobStaging)? = nil) throws {
        self.store = store
        index = try RecordIndex(environment: store.environment)
        custody = try CustodyLog(environment: store.environment)
        trust = try TrustStore(environment: store.environment)
        self.blobs = blobs ?? LMDBBlobStore(store)
        records = LMDBRecordStore(index: index, custody: custody)
    }

    public var environment: Environment { store.environment }
}

extension Environment {
    /// The named database, created only when it does not exist yet (so an archive opened
    /// read-only still opens what is there).
    func openOrCreate(_ name: String) throws -> Database {
        do {
            return try database(name)
        } catch let e as LMDBError where e == .notFound && !options.readOnly {
            return try database(name, create: true)
        }
    }
}
