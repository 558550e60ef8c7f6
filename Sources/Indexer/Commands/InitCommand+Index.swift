import Archive
import ArchiveOpen

/// `init --index postgresql://…`: the PostgreSQL index of an archive (docs/postgres.md).
extension InitCommand {
    /// The index `--index` / `--index-schema` ask for; nil without `--index`. A connection
    /// string carrying a password is a usage error: archive.json would hold it.
    static func index(_ args: ParsedArguments) throws -> ArchiveConfiguration.Index? {
        guard let text = args.value("index") else {
            if args.value("index-schema") != nil { throw UsageError("--index-schema needs --index postgresql://…", command: name) }
            return nil
        }
        let schema = args.value("index-schema") ?? "public"
        do { return try ArchiveOpener.index(connection: text, schema: schema) } catch {
            switch error {
            case .connection(let message): throw UsageError("--index: \(message)", command: name)
            case .password:
                throw UsageError("--index must not carry a password; libpq takes it from PGPASSWORD, PGPASSFILE or ~/.pgpass", command: name)
            case .schema: throw UsageError("--index-schema: '\(schema)' cannot name a PostgreSQL schema", command: name)
            }
        }
    }
}
