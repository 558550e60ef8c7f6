import Postgres

/// One step of the archive's PostgreSQL schema: a script run in one transaction, after which
/// `schema_version` holds a row for `version`.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// The archive's tables in one PostgreSQL schema (`namespace`, default `public`), created and
/// versioned by the tool.
///
/// `schema_version (version, name, applied_at, tool)` has one row per migration applied; the
/// database's version is the highest. `migrate` applies each missing migration in its own
/// transaction under a transaction-scoped advisory lock of the namespace (so two tools
/// migrating at once serialize, and the second finds nothing left to do); a database newer than
/// the tool is refused (`archive.schema.tooNew`) before anything is written. Stores check the
/// version with `check` and work only on exactly `latest`.
public struct ArchiveSchema: Sendable {
    public let namespace: String
    public let migrations: [Migration]

    /// The tool's own migrations (ArchiveSchema+Migrations.swift).
    public static let current: [Migration] = [.records, .custody, .trust, .workQueue, .countIndexes, .contentAddressedRecords, .blobLedger, .analysesColumn]

    /// `migrations` must be versions 1, 2, 3, … in order.
    public init(namespace: String = "public", migrations: [Migration] = ArchiveSchema.current) throws {
        guard !namespace.isEmpty, namespace.utf8.count <= 63, !namespace.utf8.contains(0) else {
            throw ArchivePostgresError.invalidNamespace(namespace)
        }
        for (i, m) in migrations.enumerated() where m.version != i + 1 {
            throw ArchivePostgresError.migrationsOutOfOrder("migration \(i + 1) has version \(m.version)")
        }
        self.namespace = namespace
        self.migrations = migrations
    }

    /// The version this tool's schema is at when fully migrated.
    public var latest: Int { migrations.count }

    /// Session settings for a connection of the stores: `search_path` = the namespace.
    public var sessionSettings: [(name: String, value: String)] { [("search_path", SQL.quoteIdentifier(namespace))] }

    /// The database's schema version in this namespace (0 when there is no `schema_version`).
    public func version(_ connection: Connection) throws -> Int {
        try connection.read { tx in try version(in: tx) }
    }

    func version(in tx: Transaction) throws -> Int {
        let exists = try tx.execute("SELECT to_regclass(format('%I.schema_version', $1::text)) IS NOT NULL",
                                    [.text(namespace)]).single()?.decode(0, as: Bool.self) ?? false
        guard exists else { return 0 }
        let sql = "SELECT coalesce(max(version), 0) FROM \(SQL.quoteIdentifier(namespace)).schema_version"
        return try tx.execute(sql).single()?.decode(0, as: Int.self) ?? 0
    }

    /// Throws unless the database is at exactly `latest`: `archive.schema.missing`,
    /// `archive.schema.tooOld` (migrate) or `archive.schema.tooNew` (a newer tool made it).
    public func check(_ connection: Connection) throws {
        let v = try version(connection)
        if v == 0 { throw ArchivePostgresError.schemaMissing(namespace: namespace) }
        if v > latest { throw ArchivePostgresError.schemaTooNew(namespace: namespace, database: v, tool: latest) }
        if v < latest { throw ArchivePostgresError.schemaTooOld(namespace: namespace, database: v, tool: latest) }
    }

    /// Creates the namespace and `schema_version` when missing, then applies every migration
    /// newer than the database's, each in its own transaction; returns the versions applied
    /// (empty when the database was current). Idempotent; safe to run from several processes at
    /// once. A failing migration rolls back whole (the database stays at the version before it).
    @discardableResult
    public func migrate(_ connection: Connection, tool: String = "exhibit-archive") throws -> [Int] {
        var applied: [Int] = []
        while true {
            let next: Int? = try connection.write { tx in
                try tx.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text(namespace + "/exhibit-archive-schema")])
                let missing = try tx.execute("SELECT NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)",
                                             [.text(namespace)]).single()?.decode(0, as: Bool.self) ?? true
                if missing { try tx.execute("CREATE SCHEMA \(SQL.quoteIdentifier(namespace))") }
                try tx.setLocal("search_path", SQL.quoteIdentifier(namespace))
                try tx.executeScript("""
                    CREATE TABLE IF NOT EXISTS schema_version (
                        version integer PRIMARY KEY CHECK (version >= 1),
                        name text NOT NULL,
                        applied_at timestamptz NOT NULL DEFAULT now(),
                        tool text NOT NULL
                    )
                    """)
                let current = try version(in: tx)
                if current > latest { throw ArchivePostgresError.schemaTooNew(namespace: namespace, database: current, tool: latest) }
                guard current < latest else { return nil }
                let m = migrations[current]
                try tx.executeScript(m.sql)
                try tx.execute("INSERT INTO schema_version (version, name, tool) VALUES ($1, $2, $3)",
                               [.int32(Int32(m.version)), .text(m.name), .text(tool)])
                return m.version
            }
            guard let next else { return applied }
            applied.append(next)
        }
    }
}
