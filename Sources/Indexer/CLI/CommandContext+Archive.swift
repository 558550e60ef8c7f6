import Archive
import ArchiveHandle
import ArchiveOpen
import ArchivePostgres
import CAS
import Postgres
import S3

extension CommandContext {
    /// The archive factory for `--archive` (or `$EXHIBIT_ARCHIVE`), this process's environment
    /// and the store options it sets.
    func opener() throws -> ArchiveOpener {
        ArchiveOpener(path: archivePath, environment: environment, storeOptions: try storeOptions())
    }

    /// Opens the existing archive through the one factory (`ArchiveOpener.open`, docs/archive.md).
    public func openArchive(access: ContentStore.Access = .readWrite, blobs: Bool = true) throws -> Archive {
        try opener().open(access: access, blobs: blobs)
    }

    /// The blob store of the archive `store` belongs to (`ArchiveOpener.blobStore(for:)`).
    public func blobStore(for store: ContentStore) throws -> any BlobStaging { try opener().blobStore(for: store) }

    /// The S3 blob ledger of the archive (`ArchiveOpener.blobLedger`).
    func blobLedger(_ config: ArchiveConfiguration, _ store: ContentStore) throws -> any BlobLedger {
        try opener().blobLedger(config, store)
    }

    /// The bucket's `S3BlobStore` for `blobs` (`ArchiveOpener.s3Objects`).
    func s3Objects(_ blobs: ArchiveConfiguration.Blobs, bucket: String) throws -> S3BlobStore {
        try opener().s3Objects(blobs, bucket: bucket)
    }

    /// A connection to the archive's PostgreSQL index (`ArchiveOpener.indexConnection`).
    func indexConnection(_ index: ArchiveConfiguration.Index) throws -> (Connection, ArchiveSchema) {
        try opener().indexConnection(index)
    }
}
