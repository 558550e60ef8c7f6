import Archive
import ArchiveHandle
import CAS
import LMDB
import Query

/// The LMDB side of one archive directory: its content store and, in the store's one
/// environment, the record index, the custody log and the trust anchors (issue 14 §1). What the
/// factory (`ArchiveOpen`) opens for every archive — the environment always exists, and holds
/// the S3 blob ledger when blobs are elsewhere — and what tests reach into; the stages see
/// only `archive(…)`, the protocol-typed handle over it.
public final class LMDBArchive: ArchiveAdministration, Sendable {
    public let store: ContentStore
    public let index: RecordIndex
    public let custody: CustodyLog
    public let trust: TrustStore

    /// Opens (creating when missing) the index, custody and trust databases of `store`. Call
    /// outside any transaction.
    public init(store: ContentStore) throws {
        self.store = store
        index = try RecordIndex(environment: store.environment)
        custody = try CustodyLog(environment: store.environment)
        trust = try TrustStore(environment: store.environment)
    }

    public var environment: Environment { store.environment }

    /// Chunks no blob references (`ContentStore.collectGarbage`).
    public func collectGarbage() throws -> GarbageReport { try store.collectGarbage() }

    /// The environment's counts (`ContentStore.stats`).
    public func statistics() throws -> StoreStats { try store.stats() }

    /// The blobs as chunks of this environment (the handle's `blobs` unless they are in S3).
    public var blobs: LMDBBlobStore { LMDBBlobStore(store) }

    /// The custody log as a `CustodyStore`.
    public var custodyStore: any CustodyStore { custody }

    /// The record index and custody log as a `RecordStore`.
    public var records: any RecordStore<IndexedRecord> { LMDBRecordStore(index: index, custody: custody) }

    /// The stored trust anchors as a `TrustAnchorStore`.
    public var trustAnchors: any TrustAnchorStore { LMDBTrustAnchorStore(trust: trust, custody: custody) }

    /// The archive handle: blobs in `blobs`, by default the store's own LMDB chunks; records,
    /// custody and trust in `indexStores` when given, else this environment's; `configuration`
    /// as given, else read from the directory's `archive.json`.
    public func archive(blobs: (any BlobStaging)? = nil, indexStores: IndexStores? = nil,
                        configuration: ArchiveConfiguration? = nil) throws -> Archive {
        let environment = store.environment
        return Archive(directory: store.directory, configuration: try configuration ?? ArchiveConfiguration.load(archive: store.directory),
                       blobs: blobs ?? self.blobs, records: indexStores?.records ?? records,
                       custody: indexStores?.custody ?? custody, trust: indexStores?.trust ?? trustAnchors,
                       isReadOnly: store.isReadOnly, administration: self, exportJournal: { try ExportJournal(environment: environment) })
    }
}
