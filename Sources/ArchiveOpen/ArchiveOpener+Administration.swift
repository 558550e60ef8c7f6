import Archive
import ArchivePostgres
import CAS

extension ArchiveOpener {
    /// What `stats` reads, with no S3 client made (it needs no S3 credentials): the archive
    /// directory's environment (`ArchiveAdministration.statistics()`), its configuration, and
    /// when blobs are kept elsewhere (S3) their ledger — the S3 blob store's own `totals()` —
    /// in the environment, or in the PostgreSQL index when `archive.json` has one (then the
    /// only connection made). Nil ledger: the environment holds the blobs and counts them.
    public func openAdministration(access: ArchiveAccess = .readWrite) throws
        -> (directory: String, configuration: ArchiveConfiguration, administration: any ArchiveAdministration, blobLedger: (any BlobLedger)?) {
        let store = try openStore(access: access)
        let config = try ArchiveConfiguration.load(archive: store.directory)
        let ledger = config.blobs.store == "s3" && config.blobs.bucket != nil ? try blobLedger(config, store) : nil
        return (store.directory, config, store, ledger)
    }

    /// The archive's work queue, on a connection of its own, its schema checked; nil queue when
    /// the archive has no PostgreSQL index (the queue lives there). `directory` is the archive's.
    public func workQueue() throws -> (directory: String, queue: (any WorkQueue)?) {
        let store = try openStore(access: .readIfNotWritable)
        guard let index = try ArchiveConfiguration.load(archive: store.directory).index else { return (store.directory, nil) }
        let (connection, schema) = try indexConnection(index)
        try schema.check(connection)
        return (store.directory, PostgresWorkQueue(connection: connection, schema: schema))
    }
}
