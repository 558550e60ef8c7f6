import Archive
import ArchiveHandle
import ArchiveLMDB
import ArchivePostgres
import ArchiveS3
import CAS
import Foundation
import S3

/// The one factory of an archive handle (issue 14 §1): reads the archive directory's
/// `archive.json` and builds the implementation behind each store — the LMDB environment every
/// archive has, blobs in S3 with their ledger, records, custody and trust in PostgreSQL. The
/// only code above the stages that names the implementations; the command line opens every
/// archive through it.
public struct ArchiveOpener: Sendable {
    /// The archive directory.
    public let path: String
    /// The process environment: S3 credentials, endpoint and region (`AWS_*`) and the `PG*`
    /// variables, read on every open and never stored.
    public let environment: [String: String]
    /// The LMDB environment's options (map size, write map, chunk size, batch bytes).
    public let storeOptions: ContentStore.Options

    public init(path: String, environment: [String: String], storeOptions: ContentStore.Options = ContentStore.Options()) {
        (self.path, self.environment, self.storeOptions) = (path, environment, storeOptions)
    }

    /// The factory for the archive at `path`, with the store options `environment` sets
    /// (`storeOptions(from:)`): what the command line opens every archive with.
    public static func configured(path: String, environment: [String: String]) throws(StoreOptionError) -> ArchiveOpener {
        ArchiveOpener(path: path, environment: environment, storeOptions: try storeOptions(from: environment))
    }

    /// Opens the existing archive's LMDB environment. Reading commands pass `.readIfNotWritable`:
    /// an archive this process cannot write (read-only file system, another user's files,
    /// immutable lock.mdb) is then opened read-only, and any write throws `cas.readOnly` (exit 3).
    public func openStore(access: ArchiveAccess = .readWrite) throws -> ContentStore {
        try ContentStore.open(at: path, options: storeOptions, access: access)
    }

    /// Opens the existing archive. Records, custody log and trust anchors: PostgreSQL's when
    /// `archive.json` has an `index`, else the archive environment's (LMDB). Blobs, unless `blobs`
    /// is false: as `archive.json` names them (the LMDB content store when there is none), S3
    /// credentials, and the endpoint and region unless `init` recorded them, from the
    /// environment (`AWS_*`), never from the archive. A command that reads no blob (`query`,
    /// `show`, `log`, `trust`) passes false: no S3 client is made, so it needs no credentials,
    /// and the handle's `blobs` is then the environment's own store, unused.
    public func open(access: ArchiveAccess = .readWrite, blobs: Bool = true) throws -> Archive {
        try openLMDB(access: access, blobs: blobs).archive
    }

    /// `open`, with the LMDB side the handle was built over (what `stat`, `stats`, `gc` and
    /// `audit` administer).
    public func openLMDB(access: ArchiveAccess = .readWrite, blobs: Bool = true) throws -> (lmdb: LMDBArchive, archive: Archive) {
        let store = try openStore(access: access)
        let config = try ArchiveConfiguration.load(archive: store.directory)
        let lmdb = try LMDBArchive(store: store)
        let archive = try lmdb.archive(blobs: blobs ? blobStore(for: store) : nil, indexStores: config.index.map(indexStores),
                                       configuration: config)
        return (lmdb, archive)
    }

    /// The existing archive's blob store, without its record stores (`put`), on the archive's
    /// environment (which it keeps open).
    public func openBlobs(access: ArchiveAccess = .readWrite) throws -> any BlobStaging {
        try blobStore(for: openStore(access: access))
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
    public func blobLedger(_ config: ArchiveConfiguration, _ store: ContentStore) throws -> any BlobLedger {
        guard let index = config.index else { return try LMDBBlobLedger(environment: store.environment) }
        let (connection, schema) = try indexConnection(index)
        try schema.check(connection)
        return try PostgresBlobLedger(connection: connection)
    }

    /// The bucket's `S3BlobStore` for `blobs` (Object Lock retention as recorded).
    public func s3Objects(_ blobs: ArchiveConfiguration.Blobs, bucket: String) throws -> S3BlobStore {
        var env = environment
        if let endpoint = blobs.endpoint { env["AWS_ENDPOINT_URL_S3"] = endpoint }
        if let region = blobs.region { env["AWS_REGION"] = region }
        let client = try S3Client.fromEnvironment(env)
        var options = S3BlobStore.Options()
        options.objectLock = blobs.objectLockDays.map { S3ObjectLockRetention(days: $0) }
        return try S3BlobStore(client: client, bucket: bucket, prefix: blobs.prefix ?? "", options: options)
    }
}
