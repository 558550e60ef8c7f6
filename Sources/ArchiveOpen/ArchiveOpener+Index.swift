import Archive
import ArchiveHandle
import ArchivePostgres
import Foundation
import Postgres

extension ArchiveOpener {
    /// A connection to the PostgreSQL index `archive.json` records, its session on the archive's
    /// schema. The connection string never holds a password: libpq takes it from `PGPASSWORD`,
    /// `PGPASSFILE` or `~/.pgpass`, and the other `PG*` variables fill what the string leaves out.
    public func indexConnection(_ index: ArchiveConfiguration.Index) throws -> (Connection, ArchiveSchema) {
        let schema = try ArchiveSchema(namespace: index.schema)
        var options = Connection.Options()
        options.settings = schema.sessionSettings
        let connection = try Connection(ConnectionString(index.connection, environment: environment), options: options)
        return (connection, schema)
    }

    /// The PostgreSQL record, custody and trust stores of `index`, on one connection, after
    /// checking the schema is at this tool's version (`archive.schema.*` otherwise).
    public func indexStores(_ index: ArchiveConfiguration.Index) throws -> IndexStores {
        let (connection, schema) = try indexConnection(index)
        try schema.check(connection)
        return IndexStores(records: PostgresRecordStore(connection: connection), custody: PostgresCustodyStore(connection: connection),
                           trust: PostgresTrustAnchorStore(connection: connection))
    }
}
