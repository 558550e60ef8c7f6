import Ground
import LMDB

/// A failure of the record index. `code` is stable; tests and the CLI compare against it.
public enum QueryError: Error, Equatable, Sendable, CustomStringConvertible, WrapsLMDBError {
    /// A record ID (or a prefix of one) is not lowercase hex of the right length.
    case invalidRecordId(String)
    /// A field value cannot be indexed (empty, holds a NUL byte, or a fingerprint that is not hex).
    case invalidField(name: String, value: String)
    /// A stored record body does not decode, or its body or report bytes no longer match
    /// their SHA-256 (records are content-addressed: `RecordBody`).
    case damagedRecord(recordId: ContentID, reason: String)
    /// The index was written by an incompatible format version.
    case unsupportedFormat(String)
    /// No record has this ID (or ID prefix).
    case notFound(String)
    /// An ID prefix matches more than one record.
    case ambiguousPrefix(String, candidates: [String])
    /// The LMDB environment failed.
    case storage(LMDBError)

    public var code: String {
        switch self {
        case .invalidRecordId: StatusCode.indexRecordIdInvalid
        case .invalidField: StatusCode.indexFieldInvalid
        case .damagedRecord: StatusCode.indexRecordDamaged
        case .unsupportedFormat: StatusCode.indexUnsupportedFormat
        case .notFound: StatusCode.indexRecordNotFound
        case .ambiguousPrefix: StatusCode.indexPrefixAmbiguous
        case .storage(let e): e.isDiskFull ? StatusCode.indexStorageDiskFull : StatusCode.indexStorage
        }
    }

    public var description: String {
        switch self {
        case .invalidRecordId(let s): "\(code): '\(s)' is not a record ID (64 lowercase hex digits)"
        case .invalidField(let n, let v): "\(code): \(n) value '\(v)' cannot be indexed"
        case .damagedRecord(let id, let r): "\(code): record \(id): \(r)"
        case .unsupportedFormat(let f): "\(code): unsupported index format \(f)"
        case .notFound(let id): "\(code): no record \(id)"
        case .ambiguousPrefix(let p, let c): "\(code): '\(p)' matches several records: \(c.joined(separator: ", "))"
        case .storage(let e): "\(code): \(e)"
        }
    }

    public var lmdbError: LMDBError? {
        if case .storage(let e) = self { return e }
        return nil
    }

    /// Runs `body`, turning an `LMDBError` into `.storage`.
    static func wrapping<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as LMDBError { throw QueryError.storage(e) }
    }
}

extension QueryError: NamedError {
    public var statusCode: String { code }
}
