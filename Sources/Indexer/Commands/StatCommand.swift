import ArchiveS3
import CAS
import Foundation

/// `stat ID`: a blob's size and chunk list.
struct StatCommand: Command {
    static let name = "stat"
    static let abstract = "Show a blob's size and chunks."
    static let discussion = """
    Text: 'id', 'size', 'chunk-size', 'chunks' lines, then 'chunk <index> <chunk-id> <bytes>' per chunk.
    Blobs in S3 (init --blobs): 'id', 'size', 'key <object key>', 'etag', and when set
    'version', 'lock-mode', 'retain-until' (the object's HEAD; the archive's ledger must list
    the blob). JSON: {"id","size","key","etag","versionId","lockMode","retainUntil"}.
    """
    static let arguments = [ArgumentSpec("id", help: "The blob's SHA-256, 64 hex digits.")]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = try GetCommand.parseID(args.positionals[0], command: name)
        let (lmdb, archive) = try context.openLMDBArchive(access: .readIfNotWritable)
        if let s3 = archive.blobs as? S3ArchiveBlobStore { return try s3Stat(id, s3, context) }
        let store = lmdb.store
        guard let record = try store.record(of: id) else { throw CASError.notFound(id) }
        let c = context.console
        if context.json {
            let chunks = record.chunks.enumerated().map { i, chunk in
                JSONValue.object([("index", .int(Int64(i))), ("id", .string(chunk.hex)),
                                  ("bytes", .int(Int64(record.length(ofChunk: i))))])
            }
            c.json(.object([("id", .string(id.hex)), ("size", .int(Int64(record.size))),
                            ("chunkSize", .int(Int64(record.chunkSize))), ("chunks", .array(chunks))]))
        } else {
            c.out("id \(id.hex)")
            c.out("size \(record.size)")
            c.out("chunk-size \(record.chunkSize)")
            c.out("chunks \(record.chunks.count)")
            for (i, chunk) in record.chunks.enumerated() { c.out("chunk \(i) \(chunk.hex) \(record.length(ofChunk: i))") }
        }
        return .success
    }

    /// The object behind blob `id` in an S3-backed archive.
    static func s3Stat(_ id: ContentID, _ blobs: S3ArchiveBlobStore, _ context: CommandContext) throws -> ExitCode {
        guard try blobs.recorded(id) != nil, let info = try blobs.objects.stat(id) else { throw CASError.notFound(id) }
        let key = blobs.objects.key(for: id)
        let until = info.retainUntil.map { ISO8601DateFormatter().string(from: $0) }
        let c = context.console
        if context.json {
            c.json(.object([("id", .string(id.hex)), ("size", .int(info.size)), ("key", .string(key)), ("etag", .string(info.etag)),
                            ("versionId", info.versionID.map { .string($0) } ?? .null), ("lockMode", info.lockMode.map { .string($0) } ?? .null),
                            ("retainUntil", until.map { .string($0) } ?? .null)]))
        } else {
            c.out("id \(id.hex)")
            c.out("size \(info.size)")
            c.out("key \(key)")
            c.out("etag \(info.etag)")
            if let v = info.versionID { c.out("version \(v)") }
            if let m = info.lockMode { c.out("lock-mode \(m)") }
            if let u = until { c.out("retain-until \(u)") }
        }
        return .success
    }
}
