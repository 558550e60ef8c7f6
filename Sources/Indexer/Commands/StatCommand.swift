import Archive
import Foundation
import Ground

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
        let archive = try context.openArchive(access: .readIfNotWritable)
        guard let description = try archive.blobs.describe(id) else { throw BlobNotHeld(id) }
        switch description {
        case .chunks(let size, let chunkSize, let chunks): chunkStat(id, size, chunkSize, chunks, context)
        case .object(let size, let key, let etag, let versionID, let lockMode, let retainUntil):
            objectStat(id, size, key, etag, versionID, lockMode, retainUntil, context)
        }
        return .success
    }

    /// A blob in the archive's LMDB environment: its chunks.
    static func chunkStat(_ id: ContentID, _ size: UInt64, _ chunkSize: Int, _ chunks: [BlobDescription.Chunk], _ context: CommandContext) {
        let c = context.console
        if context.json {
            let list = chunks.enumerated().map { i, chunk in
                JSONValue.object([("index", .int(Int64(i))), ("id", .string(chunk.id.hex)), ("bytes", .int(Int64(chunk.bytes)))])
            }
            c.json(.object([("id", .string(id.hex)), ("size", .int(Int64(size))),
                            ("chunkSize", .int(Int64(chunkSize))), ("chunks", .array(list))]))
        } else {
            c.out("id \(id.hex)")
            c.out("size \(size)")
            c.out("chunk-size \(chunkSize)")
            c.out("chunks \(chunks.count)")
            for (i, chunk) in chunks.enumerated() { c.out("chunk \(i) \(chunk.id.hex) \(chunk.bytes)") }
        }
    }

    /// The object behind blob `id` in an S3-backed archive.
    static func objectStat(_ id: ContentID, _ size: Int64, _ key: String, _ etag: String, _ versionID: String?, _ lockMode: String?,
                           _ retainUntil: Date?, _ context: CommandContext) {
        let until = retainUntil.map { ISO8601DateFormatter().string(from: $0) }
        let c = context.console
        if context.json {
            c.json(.object([("id", .string(id.hex)), ("size", .int(size)), ("key", .string(key)), ("etag", .string(etag)),
                            ("versionId", versionID.map { .string($0) } ?? .null), ("lockMode", lockMode.map { .string($0) } ?? .null),
                            ("retainUntil", until.map { .string($0) } ?? .null)]))
        } else {
            c.out("id \(id.hex)")
            c.out("size \(size)")
            c.out("key \(key)")
            c.out("etag \(etag)")
            if let v = versionID { c.out("version \(v)") }
            if let m = lockMode { c.out("lock-mode \(m)") }
            if let u = until { c.out("retain-until \(u)") }
        }
    }
}
