import Archive
import Ground
import LMDB

/// A failure of the content store. `code` is stable; tests and the CLI compare against it.
public enum CASError: Error, Equatable, Sendable, CustomStringConvertible, WrapsLMDBError {
    /// The directory holds no archive (run `init`).
    case notAnArchive(path: String)
    /// The archive was written by an incompatible format version.
    case unsupportedFormat(String)
    /// No blob with this ID.
    case notFound(ContentID)
    /// A ranged read asked for bytes that do not lie within the blob.
    case rangeInvalid(blob: ContentID, range: Range<Int64>, size: UInt64)
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
        case .notAnArchive: StatusCode.casNotAnArchive
        case .unsupportedFormat: StatusCode.casUnsupportedFormat
        case .notFound: StatusCode.casNotFound
        case .rangeInvalid: StatusCode.casRangeInvalid
        case .missingChunk: StatusCode.casChunkMissing
        case .damagedChunk: StatusCode.casChunkDamaged
        case .blobMismatch: StatusCode.casBlobMismatch
        case .damagedRecord: StatusCode.casRecordDamaged
        case .input: StatusCode.casInput
        case .outputRefused: StatusCode.casOutputRefused
        case .storage(let e): e.statusCode
        }
    }

    public var description: String {
        switch self {
        case .notAnArchive(let p): "\(code): no archive at \(p) (run `exhibit-archive init`)"
        case .unsupportedFormat(let f): UnsupportedArchiveFormat(format: f).description
        case .notFound(let id): "\(code): no blob \(id)"
        case .rangeInvalid(let b, let r, let n): "\(code): bytes \(r.lowerBound)..<\(r.upperBound) are not within blob \(b) of \(n) bytes"
        case .missingChunk(let b, let i, let c): "\(code): blob \(b) chunk \(i) (\(c)) is missing"
        case .damagedChunk(let b, let i, let c): "\(code): blob \(b) chunk \(i) (\(c)) does not match its ID"
        case .blobMismatch(let b, let a): "\(code): blob \(b) hashes to \(a)"
        case .damagedRecord(let b, let r): "\(code): blob \(b) record: \(r)"
        case .input(let p, let e): "\(code): \(p): \(Errno(rawValue: e))"
        case .outputRefused(let p, let r): "\(code): \(p) is \(r); -o writes only to a regular file, a new path, a FIFO or a character device"
        case .storage(let e): e.explanation
        }
    }

    /// The `errno` of a failed read of the input (`.input`), else nil.
    public var inputErrno: Int32? {
        if case .input(_, let e) = self { return e }
        return nil
    }

    public var lmdbError: LMDBError? {
        if case .storage(let e) = self { return e }
        return nil
    }

    /// `reader.read(into:)`, its failure turned into `.input` (naming the file when the source
    /// is one).
    static func read(_ reader: inout ByteReader, into buffer: UnsafeMutableRawBufferPointer) throws(CASError) -> Int {
        do { return try reader.read(into: buffer) } catch {
            throw .input(path: (reader.source as? FileByteSource)?.path ?? "<bytes>", errno: error.errno)
        }
    }

    /// Runs `body`, turning an `LMDBError` into `.storage`.
    @discardableResult
    public static func wrapping<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as LMDBError { throw CASError.storage(e) }
    }
}
