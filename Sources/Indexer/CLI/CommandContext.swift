import CAS
import Foundation

/// What a running command can use: the console, the environment variables, the archive path.
public struct CommandContext {
    public let console: Console
    public let environment: [String: String]
    public let args: ParsedArguments

    /// `--archive`, else `$EXHIBIT_ARCHIVE`, else `./archive`.
    public var archivePath: String {
        args.value("archive") ?? environment["EXHIBIT_ARCHIVE"].flatMap { $0.isEmpty ? nil : $0 } ?? "./archive"
    }

    public var json: Bool { args.flag("json") }

    /// Store options from the environment (documented in README.md):
    /// `EXHIBIT_LMDB_MAPSIZE` (initial map bytes), `EXHIBIT_LMDB_WRITEMAP=1`,
    /// `EXHIBIT_CAS_CHUNK_SIZE` (bytes, `init` only), `EXHIBIT_CAS_BATCH_MB`.
    public func storeOptions() throws -> ContentStore.Options {
        var o = ContentStore.Options()
        if let v = environment["EXHIBIT_LMDB_MAPSIZE"] {
            guard let n = Int(v), n >= 65536 else { throw UsageError("EXHIBIT_LMDB_MAPSIZE must be a byte count ≥ 65536") }
            o.environment.mapSize = n
        }
        if let v = environment["EXHIBIT_LMDB_WRITEMAP"] { o.environment.writeMap = (v == "1") }
        if let v = environment["EXHIBIT_CAS_CHUNK_SIZE"] {
            guard let n = Int(v), (1...(64 << 20)).contains(n) else { throw UsageError("EXHIBIT_CAS_CHUNK_SIZE must be 1…67108864") }
            o.chunkSize = n
        }
        if let v = environment["EXHIBIT_CAS_BATCH_MB"] {
            guard let n = Int(v), (1...1024).contains(n) else { throw UsageError("EXHIBIT_CAS_BATCH_MB must be 1…1024") }
            o.batchBytes = n << 20
        }
        return o
    }

    /// Opens the existing archive. Reading commands pass `.readIfNotWritable`: an archive this
    /// process cannot write (read-only file system, another user's files, immutable lock.mdb)
    /// is then opened read-only, and any write throws `cas.readOnly` (exit 3).
    public func openStore(access: ContentStore.Access = .readWrite) throws -> ContentStore {
        try opener().openStore(access: access)
    }
}
