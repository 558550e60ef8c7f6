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
        case .storage(let e): Self.storageKind(e).code
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
        case .storage(let e): Self.storageKind(e).meaning.map { "\(code): \($0): \(e)" } ?? "\(code): \(e)"
        }
    }

    /// The named code of a storage failure, and what it means for the user.
    static func storageKind(_ e: LMDBError) -> (code: String, meaning: String?) {
        if e.isDiskFull { return ("cas.storage.diskFull", "disk full (archive kept as of the last commit)") }
        if e.isReadOnly {
            return ("cas.readOnly", "the archive can only be read here (read-only file system or opened read-only); reading commands still work")
        }
        if e.isPermissionDenied {
            return ("cas.storage.permissionDenied", "this user may not open the archive's files as needed (permissions, or an immutable file)")
        }
        if e.isNotLMDB {
            return ("cas.storage.invalid", "data.mdb is not an LMDB environment this program reads (damaged header or other version)")
        }
        if e.code == EISDIR || e.code == ELOOP || e.code == ENXIO {
            return ("cas.storage.notAFile", "data.mdb and lock.mdb must be regular files (not a directory, link or device)")
        }
        if e.code == EBUSY { return ("cas.storage.busy", "the archive cannot be read safely now") }
        return ("cas.storage", nil)
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
