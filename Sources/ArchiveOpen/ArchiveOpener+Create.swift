import Archive
import ArchiveLMDB
import ArchivePostgres
import CAS
import Foundation
import Postgres
import S3

/// Why `init` will not make an existing archive what was asked: its blobs or records live
/// elsewhere already, and `init` moves neither. The command line reports it as a usage error.
public enum ArchiveSetupRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The archive keeps its blobs in `location` (a bucket, or "its LMDB environment" holding blobs).
    case blobsElsewhere(directory: String, location: String)
    /// The archive's index is `index` (as `archive.json` describes it), not the one asked for.
    case indexElsewhere(directory: String, index: String)
    /// The archive's LMDB environment holds records or custody events: they would stay behind.
    case recordsInEnvironment(directory: String)

    public var description: String {
        switch self {
        case .blobsElsewhere(let d, let w): "the archive at \(d) keeps its blobs in \(w) already; init does not move them"
        case .indexElsewhere(let d, let i): "the archive at \(d) keeps its index in \(i) already; init does not move it"
        case .recordsInEnvironment(let d): "the archive at \(d) holds records or custody events in its LMDB environment; init does not move them"
        }
    }
}

/// An `--index` that cannot be recorded.
public enum IndexSpecificationError: Error, Equatable, Sendable {
    /// The connection string does not parse (libpq's reason).
    case connection(String)
    /// The connection string carries a password (`archive.json` would hold it).
    case password
    /// The schema name cannot name a PostgreSQL schema.
    case schema(String)
}

/// An archive directory `init` created or found, with its LMDB environment open: what `init`
/// records in it (`archive.json`'s blobs and index) goes through here.
public final class ArchiveSetup {
    let store: ContentStore
    let opener: ArchiveOpener

    init(store: ContentStore, opener: ArchiveOpener) { (self.store, self.opener) = (store, opener) }

    /// The archive directory.
    public var directory: String { store.directory }
    /// The chunk size of the archive's blobs in its environment.
    public var chunkSize: Int { store.chunkSize }
    /// The environment's format (`exhibit-cas/1`).
    public var format: String { ContentStore.format }

    /// Records `wanted` in a new archive (checking the bucket first: a listing under the
    /// prefix, and with a retention, Object Lock), or checks an existing archive's blobs are
    /// the ones asked for: blobs never move by `init`.
    public func configureBlobs(_ wanted: ArchiveConfiguration.Blobs?) throws -> ArchiveConfiguration {
        var current = try ArchiveConfiguration.load(archive: store.directory)
        guard let wanted, wanted != current.blobs else { return current }
        if try current.blobs.store == "s3" || store.forEachBlob({ _, _ in }) > 0 {
            let whereNow = current.blobs.store == "s3" ? "s3://\(current.blobs.bucket ?? "")" + (current.blobs.prefix.map { "/\($0)" } ?? "")
                                                       : "its LMDB environment"
            throw ArchiveSetupRefusal.blobsElsewhere(directory: store.directory, location: whereNow)
        }
        if wanted.store == "s3", let bucket = wanted.bucket {
            let objects = try opener.s3Objects(wanted, bucket: bucket)
            _ = try objects.client.listObjects(bucket: bucket, prefix: objects.blobsPrefix, continuation: nil)
        }
        current.blobs = wanted
        try current.save(archive: store.directory)
        return current
    }

    /// Records `wanted` in the archive (connecting, creating or migrating its schema first), or
    /// with the archive's index already recorded, migrates it. Records never move by `init`: an
    /// archive whose LMDB environment holds records or custody events, or whose index is
    /// elsewhere already, is refused. Returns the schema version and the migrations applied
    /// (nil when the archive has no PostgreSQL index).
    public func configureIndex(_ wanted: ArchiveConfiguration.Index?) throws -> (version: Int, applied: [Int])? {
        var config = try ArchiveConfiguration.load(archive: store.directory)
        if let wanted, let have = config.index, wanted != have {
            throw ArchiveSetupRefusal.indexElsewhere(directory: store.directory, index: have.description)
        }
        guard let index = wanted ?? config.index else { return nil }
        if config.index == nil {
            let lmdb = try LMDBArchive(store: store)
            if try lmdb.records.recordCount() > 0 || lmdb.custody.head().seq > 0 {
                throw ArchiveSetupRefusal.recordsInEnvironment(directory: store.directory)
            }
        }
        let (connection, schema) = try opener.indexConnection(index)
        let applied = try schema.migrate(connection)
        let version = try schema.version(connection)
        if config.index == nil {
            config.index = index
            config.format = ArchiveConfiguration.indexFormat
            try config.save(archive: store.directory)
        }
        return (version, applied)
    }
}

extension ArchiveOpener {
    /// Creates the archive directory (0700) and its LMDB environment (files 0600) with this
    /// factory's store options, or opens the existing one (`init`).
    public func create() throws -> ArchiveSetup {
        ArchiveSetup(store: try ContentStore.create(at: path, options: storeOptions), opener: self)
    }

    /// The PostgreSQL index `--index`/`--index-schema` name, checked before anything connects:
    /// the connection string parses and carries no password, and the schema name can name one.
    public static func index(connection text: String, schema: String) throws(IndexSpecificationError) -> ArchiveConfiguration.Index {
        let parsed: ConnectionString
        do { parsed = try ConnectionString(text) } catch { throw .connection(error.message) }
        if parsed.value("password") != nil || parsed.value("sslpassword") != nil { throw .password }
        do { _ = try ArchiveSchema(namespace: schema) } catch { throw .schema(schema) }
        return ArchiveConfiguration.Index(connection: text, schema: schema)
    }
}
