import Archive
import ArchiveLMDB
import ArchivePostgres
import ArchiveS3
import CAS
import Foundation
import Ingest
import S3

extension CommandContext {
    /// Opens the existing archive: the one place the CLI picks the implementation behind each
    /// of its stores (docs/archive.md). Records, custody log and trust anchors: PostgreSQL's when
    /// `archive.json` has an `index`, else the archive environment's (LMDB). Blobs, unless `blobs`
    /// is false: as `archive.json` names them (the LMDB content store when there is none), S3
    /// credentials, and the endpoint and region unless `init` recorded them, from the
    /// environment (`AWS_*`), never from the archive. A command that reads no blob (`query`,
    /// `show`, `log`, `trust`) passes false: no S3 client is made, so it needs no credentials,
    /// and the façade's `blobs` is then the environment's own store, unused.
    public func openArchive(access: ContentStore.Access = .readWrite, blobs: Bool = true) throws -> Archive {
        let store = try openStore(access: access)
        let index = try ArchiveConfiguration.load(archive: store.directory).index
        return try Archive(store: store, blobs: blobs ? blobStore(for: store) : nil, indexStores: index.map(indexStores))
    }

    /// The blob store of the archive `store` belongs to. Blobs in S3 keep their ledger in the
    /// PostgreSQL index when `archive.json` names one (shared by every machine of the archive,
    /// on a connection of its own), else in the archive directory's LMDB environment.
    public func blobStore(for store: ContentStore) throws -> any BlobStaging {
        let config = try ArchiveConfiguration.load(archive: store.directory)
        guard config.blobs.store == "s3", let bucket = config.blobs.bucket else { return LMDBBlobStore(store) }
        return try S3ArchiveBlobStore(objects: s3Objects(config.blobs, bucket: bucket), ledger: blobLedger(config, store))
    }

    /// The S3 blob ledger of the archive: PostgreSQL's `blob_ledger` with an index, else LMDB's `s3.blobs`.
    func blobLedger(_ config: ArchiveConfiguration, _ store: ContentStore) throws -> any BlobLedger {
        guard let index = config.index else { return try LMDBBlobLedger(environment: store.environment) }
        let (connection, schema) = try indexConnection(index)
        try schema.check(connection)
        return try PostgresBlobLedger(connection: connection)
    }

    /// The bucket's `S3BlobStore` for `blobs` (Object Lock retention as recorded).
    func s3Objects(_ blobs: ArchiveConfiguration.Blobs, bucket: String) throws -> S3BlobStore {
        var env = environment
        if let endpoint = blobs.endpoint { env["AWS_ENDPOINT_URL_S3"] = endpoint }
        if let region = blobs.region { env["AWS_REGION"] = region }
        let client = try S3Client.fromEnvironment(env)
        var options = S3BlobStore.Options()
        options.objectLock = blobs.objectLockDays.map { S3ObjectLockRetention(days: $0) }
        return try S3BlobStore(client: client, bucket: bucket, prefix: blobs.prefix ?? "", options: options)
    }
}
