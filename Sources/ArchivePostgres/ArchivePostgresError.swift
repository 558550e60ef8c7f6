import Archive
import Ground
import Postgres

/// A failure of the archive's PostgreSQL schema or of one of its stores' SQL. `code` is stable;
/// tests and the CLI compare against it. The database's own failures (connection lost,
/// serialization failure, constraint violation, …) are thrown as they come, as `PostgresError`
/// with its `pg.…` codes.
public enum ArchivePostgresError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database's schema is newer than every migration this tool knows: refused, nothing
    /// read or written (an older tool must not write rows a newer schema gives other meanings).
    case schemaTooNew(namespace: String, database: Int, tool: Int)
    /// The database's schema is older than this tool's: run the migrations (`migrate`).
    case schemaTooOld(namespace: String, database: Int, tool: Int)
    /// No schema in this namespace yet (no `schema_version` table): run the migrations.
    case schemaMissing(namespace: String)
    /// A list of migrations that is not 1, 2, 3, … in order.
    case migrationsOutOfOrder(String)
    /// A namespace (PostgreSQL schema) name that cannot be used (empty, too long, NUL).
    case invalidNamespace(String)
    /// The database refused an event that does not continue the head it read (another writer
    /// appended without the chain's advisory lock).
    case custodyHeadMoved(seq: UInt64, detail: String)
    /// A custody event's stored bytes do not end in its hash, or a hash is not 32 bytes.
    case custodyEventInvalid(String)
    /// The queue job's lease is no longer this worker's (it expired and another worker took
    /// the job, or the job finished): stop working on it; the transaction must roll back.
    case leaseLost(jobId: Int64, attempt: Int)
    /// This process's staging mark (`blob_pending`) expired or was cleared by a `gc` before its
    /// batch was listed: the objects it uploaded may be gone, so the batch is not listed.
    case blobMarkLost(holder: String)
    /// A stored value breaks the schema's rules (a record ID not 32 bytes, …).
    case damagedRow(String)

    public var code: String {
        switch self {
        case .schemaTooNew: StatusCode.archiveSchemaTooNew
        case .schemaTooOld: StatusCode.archiveSchemaTooOld
        case .schemaMissing: StatusCode.archiveSchemaMissing
        case .migrationsOutOfOrder: StatusCode.archiveSchemaMigrationsOutOfOrder
        case .invalidNamespace: StatusCode.archiveSchemaNamespaceInvalid
        case .custodyHeadMoved: StatusCode.custodyHeadMoved
        case .custodyEventInvalid: StatusCode.custodyEventInvalid
        case .leaseLost: StatusCode.queueLeaseLost
        case .damagedRow: StatusCode.archiveRowDamaged
        case .blobMarkLost: StatusCode.archiveBlobsMarkLost
        }
    }

    public var description: String {
        switch self {
        case .schemaTooNew(let ns, let db, let tool):
            "\(code): the database schema \(ns) is at version \(db); this exhibit-archive knows versions up to \(tool) — use a newer exhibit-archive"
        case .schemaTooOld(let ns, let db, let tool):
            "\(code): the database schema \(ns) is at version \(db); this exhibit-archive needs \(tool) — run the migrations"
        case .schemaMissing(let ns): "\(code): no archive schema in \(ns) (no schema_version table) — run the migrations"
        case .migrationsOutOfOrder(let s): "\(code): \(s)"
        case .invalidNamespace(let s): "\(code): '\(s)' cannot name a PostgreSQL schema"
        case .custodyHeadMoved(let seq, let d): "\(code): event \(seq) no longer continues the custody head: \(d)"
        case .custodyEventInvalid(let s): "\(code): \(s)"
        case .leaseLost(let id, let attempt): "\(code): job \(id) attempt \(attempt) is no longer leased to this worker"
        case .damagedRow(let s): "\(code): \(s)"
        case .blobMarkLost(let holder):
            "\(code): the staging mark of \(holder) expired before its blobs were listed (a gc may have removed their objects); run the ingest again"
        }
    }
}

extension ArchivePostgresError: ArchiveFailure {
    public var statusCode: String { code }
    /// The schema missing, too old or too new, its namespace invalid (`archive.schema.*`): the
    /// archive's index cannot be used (exit 3). The others fail one operation (exit 1).
    public var archiveUnusable: Bool { code.hasPrefix("archive.schema") }
}

/// PostgreSQL unreachable, refusing or failing (its messages carry no password): the archive's
/// index cannot be used (exit 3).
extension PostgresError: ArchiveFailure {
    public var archiveUnusable: Bool { true }
}
