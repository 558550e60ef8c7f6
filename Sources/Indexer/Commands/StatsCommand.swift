import Archive
import Foundation

/// `stats`: blobs, bytes, dedup, map use.
struct StatsCommand: Command {
    static let name = "stats"
    static let abstract = "Show counts: blobs, bytes, chunks, dedup ratio, map use."
    static let discussion = """
    Fields: blobs, bytes (sum of blob sizes), chunks, stored-bytes (distinct chunk bytes),
    chunk-refs, dedup (bytes / stored-bytes), pending-puts, chunk-size, map-size, map-used,
    blob-store (lmdb or s3), blob-location (lmdb:DIR, or s3://BUCKET[/PREFIX] at ENDPOINT
    (REGION); never a credential), index-store (lmdb or postgresql), index-location (lmdb:DIR,
    or postgresql CONNECTION schema SCHEMA as init --index recorded it; never a password).
    With blobs in S3, blobs and bytes count the archive's blob
    ledger (with a PostgreSQL index, the ledger every machine shares: stats then connects to
    PostgreSQL, never to S3); chunks, stored-bytes, chunk-refs and dedup describe the LMDB environment only.
    """

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // No S3 client made (stats needs no S3 credentials): with blobs in S3, their ledger counts them.
        let archive = try context.opener().openAdministration(access: .readIfNotWritable)
        let s = try archive.administration.statistics()
        let location = blobLocation(archive.directory, archive.configuration, context)
        let index = indexLocation(archive.directory, archive.configuration)
        var blobs = Int64(s.blobs), bytes = Int64(s.logicalBytes)
        if let ledger = archive.blobLedger { (blobs, bytes) = try ledger.totals() }
        let fields: [(String, JSONValue)] = [
            ("blobs", .int(blobs)), ("bytes", .int(bytes)),
            ("chunks", .int(Int64(s.chunks))), ("storedBytes", .int(Int64(s.storedBytes))),
            ("chunkRefs", .int(Int64(s.chunkReferences))), ("dedup", .double(s.dedupRatio)),
            ("pendingPuts", .int(Int64(s.pendingPuts))), ("chunkSize", .int(Int64(s.chunkSize))),
            ("mapSize", .int(Int64(s.mapSize))), ("mapUsed", .int(Int64(s.mapUsed))),
            ("blobStore", .string(location.kind)), ("blobLocation", .string(location.description)),
            ("indexStore", .string(index.store)), ("indexLocation", .string(index.description)),
        ]
        if context.json {
            context.console.json(.object(fields))
        } else {
            for (k, v) in fields {
                if case .string(let text) = v { context.console.out("\(kebab(k)) \(text)") } else { context.console.out("\(kebab(k)) \(v.encoded())") }
            }
        }
        return .success
    }

    /// Where the archive's blobs live, from `archive.json` (no connection made).
    static func blobLocation(_ directory: String, _ config: ArchiveConfiguration, _ context: CommandContext) -> BlobLocation {
        guard config.blobs.store == "s3", let bucket = config.blobs.bucket else { return .lmdb(directory: directory) }
        let endpoint = config.blobs.endpoint ?? [context.environment["AWS_ENDPOINT_URL_S3"], context.environment["AWS_ENDPOINT_URL"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        let region = config.blobs.region ?? [context.environment["AWS_REGION"], context.environment["AWS_DEFAULT_REGION"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "us-east-1"
        return .s3(bucket: bucket, prefix: config.blobs.prefix ?? "", endpoint: endpoint, region: region)
    }

    /// Where the archive's records, custody and trust live, from `archive.json` (no
    /// connection made): `lmdb` and `lmdb:DIR`, or `postgresql` and the connection and schema
    /// `init --index` recorded (never a password: none is ever recorded).
    static func indexLocation(_ directory: String, _ config: ArchiveConfiguration) -> (store: String, description: String) {
        guard let index = config.index else { return ("lmdb", "lmdb:\(directory)") }
        return (index.store, index.description)
    }

    static func kebab(_ s: String) -> String {
        s.reduce(into: "") { out, ch in
            if ch.isUppercase { out += "-" + ch.lowercased() } else { out.append(ch) }
        }
    }
}
