import Archive
import Foundation
import LMDB

/// A content-addressed store of blobs inside one LMDB environment (the archive directory).
///
/// Named databases (all in the one environment that the record index will share):
/// - `cas.meta`   — `format` → `exhibit-cas/1`, `chunkSize` → u32 BE (fixed at `init`).
/// - `cas.blobs`  — blob ID (32 B) → `BlobRecord` (size, chunk size, chunk IDs).
/// - `cas.chunks` — chunk ID (32 B, SHA-256 of the chunk) → chunk bytes.
/// - `cas.pending`— put token (16 B) → pid u32 BE + start time u64 BE, while a batched put runs.
///
/// A blob is visible only through `cas.blobs`, written in the last transaction of a put, after
/// every chunk has been committed durably; chunks left by a put that never finished are
/// unreferenced (invisible to get and audit) and removed by `collectGarbage()`.
public final class ContentStore: @unchecked Sendable {
    /// Chunk size that fills LMDB overflow pages exactly: 256 pages of 4096 bytes minus the
    /// 16-byte page header (see docs/cas.md for the measurement against 1 MiB).
    public static let defaultChunkSize = 256 * 4096 - 16
    public static let format = "exhibit-cas/1"

    /// How the store is opened.
    public struct Options: Sendable {
        /// Options of the LMDB environment (map size, `MDB_WRITEMAP`, …).
        public var environment = Environment.Options()
        /// Chunk size of a new archive (ignored when opening an existing one).
        public var chunkSize = ContentStore.defaultChunkSize
        /// Bytes of chunks committed per write transaction in a streaming put.
        public var batchBytes = 4 << 20
        public init() {}
    }

    public let environment: Environment
    public let directory: String
    public let chunkSize: Int
    public let options: Options
    let meta: Database
    let blobs: Database
    let chunks: Database
    let pending: Database

    /// Creates the archive directory (0700) and the environment (files 0600), or opens it if
    /// it already exists.
    public static func create(at directory: String, options: Options = Options()) throws -> ContentStore {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if !fm.fileExists(atPath: directory, isDirectory: &isDir) {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                   attributes: [.posixPermissions: 0o700])
        }
        chmod(directory, 0o700)
        return try ContentStore(directory: directory, options: options, create: true)
    }

    /// Opens an existing archive; throws `.notAnArchive` when there is none, and
    /// `.storage(…)` with a named code when it cannot be opened (ContentStore+Open.swift).
    /// `access: .readIfNotWritable` opens an archive this process cannot write read-only.
    public static func open(at directory: String, options: Options = Options(),
                            access: Access = .readWrite) throws -> ContentStore {
        try checkFiles(directory)
        return try openEnvironment(directory, options: options, access: access) { options in
            try ContentStore(directory: directory, options: options, create: false)
        }
    }

    /// True when the archive was opened read-only (every write throws `cas.readOnly`).
    public var isReadOnly: Bool { environment.options.readOnly }

    private init(directory: String, options: Options, create: Bool) throws {
        self.directory = directory
        self.options = options
        let env = try CASError.wrapping { try Environment(path: directory, options: options.environment) }
        environment = env
        let writable = create
        (meta, blobs, chunks, pending) = try CASError.wrapping {
            (try env.database("cas.meta", create: writable), try env.database("cas.blobs", create: writable),
             try env.database("cas.chunks", create: writable), try env.database("cas.pending", create: writable))
        }
        let meta = self.meta
        let stored: (String?, Int?) = try CASError.wrapping {
            let body: (Transaction) throws -> (String?, Int?) = { txn in
                if create {
                    _ = try txn.put(meta, Array("format".utf8), Array(Self.format.utf8), flags: .noOverwrite)
                    var size = UInt32(options.chunkSize).bigEndian
                    _ = try withUnsafeBytes(of: &size) { try txn.put(meta, Array("chunkSize".utf8), Array($0), flags: .noOverwrite) }
                }
                let format = try txn.value(meta, Array("format".utf8)).map { String(decoding: $0, as: UTF8.self) }
                let size = try txn.value(meta, Array("chunkSize".utf8)).flatMap { raw -> Int? in
                    raw.count == 4 ? Int(raw.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) : nil
                }
                return (format, size)
            }
            // Opening only reads: it never waits for another process's write transaction.
            return create ? try env.write(body) : try env.read(body)
        }
        guard let format = stored.0 else { throw CASError.notAnArchive(path: directory) }
        guard format == Self.format else { throw CASError.unsupportedFormat(format) }
        guard let size = stored.1, size > 0 else { throw CASError.unsupportedFormat("chunkSize missing") }
        chunkSize = size
    }
}
