import LMDB

/// A failure of the content store. `code` is stable; tests and the CLI compare against it.
public enum CASError: Error, Equatable, Sendable, CustomStringConvertible, WrapsLMDBError {
    /// The directory holds no archive (run `init`).
    case notAnArchive(path: String)
    /// The archive was written by an incompatible format version.
    case unsupportedFormat(String)
    /// No blob with this ID.
    case notFound(ContentID)
    /// A chunk the blob lists is absent.
    case missingChunk(blob: ContentID, index: Int, chunk: ContentID)
    /// A chunk's bytes do not hash to its ID, or have the wrong length.
    case damagedChunk(blob: ContentID, index: Int, chunk: ContentID)
    /// The blob's bytes do not hash to its ID.
    case blobMismatch(blob: ContentID, actual: ContentID)
    /// The blob's metadata record is malformed.
    case damagedRecord(blob: ContentID, reason: String)
    /// Reading the input failed.
    case input(path: String, errno: Int32)
    /// The LMDB environment failed (map, disk, corruption…).
    case storage(LMDBError)
    /// `get -o` (or an export) was asked to write to something that is not a regular file, a
    /// new path, a FIFO or a character device (a directory, a block device, a symbolic link).
    case outputRefused(path: String, reason: String)

    public var code: String {
        switch self {
        case .notAnArchive: "cas.notAnArchive"
        case .unsupportedFormat: "cas.unsupportedFormat"
        case .notFound: "cas.notFound"
        case .missingChunk: "cas.chunk.missing"
        case .damagedChunk: "cas.chunk.damaged"
        case .blobMismatch: "cas.blob.mismatch"
        case .damagedRecord: "cas.record.damaged"
        case .input: "cas.input"
        case .outputRefused: "cas.output.refused"
        case .storage(let e):
            if e.isDiskFull { "cas.storage.diskFull" }
            else if e.isReadOnly { "cas.readOnly" }
            else if e.isPermissionDenied { "cas.storage.permissionDenied" }
            else if e.isNotLMDB { "cas.storage.invalid" }
            else if e.code == EISDIR || e.code == ELOOP || e.code == ENXIO { "cas.storage.notAFile" }
            else if e.code == EBUSY { "cas.storage.busy" }
            else { "cas.storage" }
        }
    }

    public var description: String {
        switch self {
        case .notAnArchive(let p): "\(code): no archive at \(p) (run `exhibit-archive init`)"
        case .unsupportedFormat(let f): "\(code): unsupported archive format \(f)"
        case .notFound(let id): "\(code): no blob \(id)"
        case .missingChunk(let b, let i, let c): "\(code): blob \(b) chunk \(i) (\(c)) is missing"
        case .damagedChunk(let b, let i, let c): "\(code): blob \(b) chunk \(i) (\(c)) does not match its ID"
        case .blobMismatch(let b, let a): "\(code): blob \(b) hashes to \(a)"
        case .damagedRecord(let b, let r): "\(code): blob \(b) record: \(r)"
        case .input(let p, let e): "\(code): \(p): \(String(cString: strerror(e)))"
        case .outputRefused(let p, let r): "\(code): \(p) is \(r); -o writes only to a regular file, a new path, a FIFO or a character device"
        case .storage(let e):
            if e.isDiskFull { "\(code): disk full (archive kept as of the last commit): \(e)" }
            else if e.isReadOnly { "\(code): the archive can only be read here (read-only file system or opened read-only); reading commands still work: \(e)" }
            else if e.isPermissionDenied { "\(code): this user may not open the archive's files as needed (permissions, or an immutable file): \(e)" }
            else if e.isNotLMDB { "\(code): data.mdb is not an LMDB environment this program reads (damaged header or other version): \(e)" }
            else if e.code == EISDIR || e.code == ELOOP || e.code == ENXIO { "\(code): data.mdb and lock.mdb must be regular files (not a directory, link or device): \(e)" }
            else if e.code == EBUSY { "\(code): the archive cannot be read safely now: \(e)" }
            else { "\(code): \(e)" }
        }
    }

    public var lmdbError: LMDBError? {
        if case .storage(let e) = self { return e }
        return nil
    }

    /// Runs `body`, turning an `LMDBError` into `.storage`.
    @discardableResult
    static func wrapping<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as LMDBError { throw CASError.storage(e) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
