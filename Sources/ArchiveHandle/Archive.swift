import Archive
import Foundation
import Query

/// One open archive as the stages see it (issue 14 §1): where it is, what its `archive.json`
/// says, and its stores behind the `Archive` target's protocols — blobs (with staging), records
/// and their index, the custody log, the trust anchors and the export journal. Nothing here
/// names a medium: `ArchiveOpen`'s factory (`ArchiveOpener`) builds it from the configuration
/// (LMDB, S3, PostgreSQL), and `ArchiveLMDB.LMDBArchive` builds the all-LMDB one for tests.
public final class Archive: Sendable {
    /// The archive directory (its LMDB environment, `archive.json`, the archive key).
    public let directory: String
    /// `archive.json` as read when the archive was opened (all LMDB when there is none).
    public let configuration: ArchiveConfiguration
    /// Where blobs live (docs/archive.md): every blob read or written by ingest, reverify,
    /// export and the CLI goes through it.
    public let blobs: any BlobStaging
    /// The records and their index: a record and its custody events in one write transaction.
    public let records: any RecordStore<IndexedRecord>
    /// The custody log.
    public let custodyStore: any CustodyStore
    /// The stored trust anchors, each change with its custody events.
    public let trustAnchors: any TrustAnchorStore
    /// True when the archive was opened read-only (`readIfNotWritable` on an archive this
    /// process cannot write): every write throws, and `audit` does not log its event.
    public let isReadOnly: Bool
    /// The upkeep of the archive directory's own environment (`gc`'s chunk sweep).
    public let administration: any ArchiveAdministration
    private let openJournal: @Sendable () throws -> any ExportJournalStore

    public init(directory: String, configuration: ArchiveConfiguration, blobs: any BlobStaging,
                records: any RecordStore<IndexedRecord>, custody: any CustodyStore, trust: any TrustAnchorStore,
                isReadOnly: Bool = false, administration: any ArchiveAdministration, exportJournal: @escaping @Sendable () throws -> any ExportJournalStore) {
        self.directory = directory
        self.configuration = configuration
        self.blobs = blobs
        self.records = records
        custodyStore = custody
        trustAnchors = trust
        self.isReadOnly = isReadOnly
        self.administration = administration
        openJournal = exportJournal
    }

    /// The running exports (opened on first use: a read-only archive has none to open).
    public func exportJournal() throws -> any ExportJournalStore { try openJournal() }
}

/// An archive's records, custody log and trust anchors kept outside its LMDB environment
/// (PostgreSQL, docs/postgres.md): what the factory opens when `archive.json` has an `index`.
public struct IndexStores: Sendable {
    public let records: any RecordStore<IndexedRecord>
    public let custody: any CustodyStore
    public let trust: any TrustAnchorStore

    public init(records: any RecordStore<IndexedRecord>, custody: any CustodyStore, trust: any TrustAnchorStore) {
        (self.records, self.custody, self.trust) = (records, custody, trust)
    }
}
