import Archive
import ArchiveOpen
import Foundation
import Export
import Ingest

/// `init`: creates the archive directory (0700), its LMDB environment (files 0600) and the
/// archive's P-256 signing key (`archive-key.pem`, 0600) with a self-signed certificate
/// (`archive-cert.pem`) that exports sign their custody report with. With `--blobs
/// s3://BUCKET[/PREFIX]` the blobs live in an S3 bucket (`archive.json`, docs/archive.md).
struct InitCommand: Command {
    static let name = "init"
    static let abstract = "Create an empty archive (or check an existing one)."
    static let discussion = """
    Creates the directory (mode 0700) and the LMDB environment data.mdb/lock.mdb (mode 0600).
    Also creates the archive's P-256 signing key archive-key.pem (mode 0600) and its
    self-signed certificate archive-cert.pem, once; running init again keeps them. Exports
    sign custody.json with this key; give its fingerprint to recipients out of band.
    With --blobs s3://BUCKET[/PREFIX], blobs are objects PREFIX/blobs/<2 hex>/<sha256> in that
    bucket; records, index, custody log and trust stay in the LMDB environment. The location
    is recorded in archive.json (mode 0600), never a credential: AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN come from the environment on every run (and
    AWS_ENDPOINT_URL_S3 / AWS_REGION unless --s3-endpoint / --s3-region are recorded). init
    checks the bucket is reachable; --object-lock-days N puts every new object under S3 Object
    Lock in COMPLIANCE mode for N days and needs a bucket with Object Lock enabled.
    With --index postgresql://[USER@]HOST[:PORT]/DB (a libpq URI or key=value connection
    string), records, index, custody log, trust anchors and the work queue live in that
    database, in the schema --index-schema (default public): init connects, creates or
    migrates the tables and records the connection in archive.json. A password in the string
    is refused: libpq takes it from PGPASSWORD, PGPASSFILE or ~/.pgpass, and the other PG*
    variables fill what the string leaves out. Running init again with the same --index
    migrates an older schema; a schema newer than this tool is refused.
    """
    static let options = [
        OptionSpec("blobs", value: "uri", help: "Where blobs live: s3://BUCKET[/PREFIX] (default: the archive's LMDB environment)."),
        OptionSpec("s3-endpoint", value: "url", help: "S3 endpoint URL to record (default: $AWS_ENDPOINT_URL_S3 on each run, else AWS)."),
        OptionSpec("s3-region", value: "region", help: "S3 region to record (default: $AWS_REGION on each run, else us-east-1)."),
        OptionSpec("object-lock-days", value: "n", help: "Object Lock COMPLIANCE retention of every new blob, in days (needs --blobs s3://…)."),
        OptionSpec("index", value: "conninfo", help: "Where records, custody, trust and the work queue live: postgresql://… or a libpq key=value string, no password (default: the archive's LMDB environment)."),
        OptionSpec("index-schema", value: "name", help: "PostgreSQL schema of the archive's tables (default: public; needs --index)."),
    ]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let wanted = try blobs(args)
        let wantedIndex = try index(args)
        let archive = try context.opener().create()
        let schemaVersion = try refusalAsUsage {
            _ = try archive.configureBlobs(wanted)
            return try archive.configureIndex(wantedIndex)
        }
        let (key, created) = try ArchiveKey.loadOrCreate(archive: archive.directory)
        let config = try ArchiveConfiguration.load(archive: archive.directory)
        let location = StatsCommand.blobLocation(archive.directory, config, context)
        let indexLocation = StatsCommand.indexLocation(archive.directory, config)
        if context.json {
            context.console.json(.object([("archive", .string(archive.directory)),
                                          ("chunkSize", .int(Int64(archive.chunkSize))),
                                          ("format", .string(archive.format)),
                                          ("archiveKey", .string(key.fingerprint)),
                                          ("archiveKeyCreated", .bool(created)),
                                          ("blobStore", .string(location.kind)),
                                          ("blobLocation", .string(location.description))]
                                         + (config.blobs.objectLockDays.map { [("objectLockDays", JSONValue.int(Int64($0)))] } ?? [])
                                         + [("indexStore", .string(indexLocation.store)), ("indexLocation", .string(indexLocation.description))]
                                         + (schemaVersion.map { [("indexSchemaVersion", JSONValue.int(Int64($0.version))),
                                                                 ("indexMigrationsApplied", .array($0.applied.map { .int(Int64($0)) }))] } ?? [])))
        } else {
            context.console.out("initialized \(archive.directory) (chunk size \(archive.chunkSize) bytes)")
            context.console.out("archive key \(key.fingerprint) (\(created ? "created" : "kept") \(ArchiveKey.keyFile), \(ArchiveKey.certificateFile))")
            context.console.out("blobs \(location)" + (config.blobs.objectLockDays.map { " (Object Lock COMPLIANCE, \($0) days)" } ?? ""))
            context.console.out("index \(indexLocation.description)" + (schemaVersion.map { v in
                " (schema version \(v.version)" + (v.applied.isEmpty ? ", current)" : "; migrations \(v.applied.map(String.init).joined(separator: ", ")) applied)")
            } ?? ""))
        }
        return .success
    }

    /// The blob location the flags ask for; nil when `--blobs` is not given.
    static func blobs(_ args: ParsedArguments) throws -> ArchiveConfiguration.Blobs? {
        let lockDays: Int? = try args.value("object-lock-days").map { text in
            guard let n = Int(text), (1...36_500).contains(n) else {
                throw UsageError("--object-lock-days must be 1…36500, not '\(text)'", command: name)
            }
            return n
        }
        guard let uri = args.value("blobs") else {
            for flag in ["s3-endpoint", "s3-region", "object-lock-days"] where args.value(flag) != nil {
                throw UsageError("--\(flag) needs --blobs s3://BUCKET[/PREFIX]", command: name)
            }
            return nil
        }
        if uri == "lmdb" { return .lmdb }
        guard let (bucket, prefix) = ArchiveConfiguration.s3Location(uri) else {
            throw UsageError("--blobs must be s3://BUCKET[/PREFIX] or lmdb, not '\(uri)'", command: name)
        }
        // The endpoint is recorded in archive.json: a URL carrying user-info would store a
        // credential there (credentials come from the environment only).
        if let endpoint = args.value("s3-endpoint"),
           URLComponents(string: endpoint).map({ $0.user != nil || $0.password != nil }) ?? endpoint.contains("@") {
            throw UsageError("--s3-endpoint must not carry credentials (user:password@); they come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", command: name)
        }
        return ArchiveConfiguration.Blobs(store: "s3", bucket: bucket, prefix: prefix.isEmpty ? nil : prefix,
                                          endpoint: args.value("s3-endpoint"), region: args.value("s3-region"), objectLockDays: lockDays)
    }

    /// `body`, with `init`'s refusal to move an archive's blobs or records reported as a usage
    /// error of `init` (exit 2).
    static func refusalAsUsage<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as ArchiveSetupRefusal { throw UsageError(e.description, command: name) }
    }
}
