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

    public var code: String {
        switch self {
        case .notAnArchive: StatusCode.casNotAnArchive
        case .unsupportedFormat: StatusCode.casUnsupportedFormat
        case .notFound: StatusCode.casNotFound
        case .missingChunk: StatusCode.casChunkMissing
        case .damagedChunk: StatusCode.casChunkDamaged
        case .blobMismatch: StatusCode.casBlobMismatch
        case .damagedRecord: StatusCode.casRecordDamaged
        case .input: StatusCode.casInput
        case .storage(let e): e.isDiskFull ? StatusCode.casStorageDiskFull : StatusCode.casStorage
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
        case .input(let p, let e): "\(code): \(p): \(Errno(rawValue: e))"
        case .storage(let e): e.isDiskFull ? "\(code): disk full (archive kept as of the last commit): \(e)" : "\(code): \(e)"
        }
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
    static func wrapping<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as LMDBError { throw CASError.storage(e) }
    }
}
