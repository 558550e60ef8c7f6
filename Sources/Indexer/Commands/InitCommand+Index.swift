import Archive
import ArchiveLMDB
import ArchivePostgres
import CAS
import Foundation
import Ingest
import Postgres

/// `init --index postgresql://…`: the PostgreSQL index of an archive (docs/postgres.md).
extension InitCommand {
    /// The index `--index` / `--index-schema` ask for; nil without `--index`. A connection
    /// string carrying a password is a usage error: archive.json would hold it.
    static func index(_ args: ParsedArguments) throws -> ArchiveConfiguration.Index? {
        guard let text = args.value("index") else {
            if args.value("index-schema") != nil { throw UsageError("--index-schema needs --index postgresql://…", command: name) }
            return nil
        }
        let parsed: ConnectionString
        do { parsed = try ConnectionString(text) } catch {
            throw UsageError("--index: \(error.message)", command: name)
        }
        if parsed.value("password") != nil || parsed.value("sslpassword") != nil {
            throw UsageError("--index must not carry a password; libpq takes it from PGPASSWORD, PGPASSFILE or ~/.pgpass", command: name)
        }
        let schema = args.value("index-schema") ?? "public"
        do { _ = try ArchiveSchema(namespace: schema) } catch {
            throw UsageError("--index-schema: '\(schema)' cannot name a PostgreSQL schema", command: name)
        }
        return ArchiveConfiguration.Index(connection: text, schema: schema)
    }

    /// Records `wanted` in the archive (connecting, creating or migrating its schema first), or
    /// with the archive's index already recorded, migrates it. Records never move by `init`: an
    /// archive whose LMDB environment holds records or custody events, or whose index is
    /// elsewhere already, is refused. Returns the schema version and the migrations applied
    /// (nil when the archive has no PostgreSQL index).
    static func configureIndex(_ store: ContentStore, _ wanted: ArchiveConfiguration.Index?,
                               _ context: CommandContext) throws -> (version: Int, applied: [Int])? {
        var config = try ArchiveConfiguration.load(archive: store.directory)
        if let wanted, let have = config.index, wanted != have {
            throw UsageError("the archive at \(store.directory) keeps its index in \(have.description) already; init does not move it", command: name)
        }
        guard let index = wanted ?? config.index else { return nil }
        if config.index == nil {
            let lmdb = try LMDBArchive(store: store)
            if try lmdb.records.recordCount() > 0 || lmdb.custody.head().seq > 0 {
                throw UsageError("the archive at \(store.directory) holds records or custody events in its LMDB environment; init does not move them", command: name)
            }
        }
        let (connection, schema) = try context.indexConnection(index)
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
