import Ground

/// A failure of the record index. `code` is stable; tests and the CLI compare against it.
public enum QueryError: Error, Equatable, Sendable, CustomStringConvertible, CarriesStorageFailure {
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
    /// The storage medium failed (LMDB: an `LMDBError`).
    case storage(any StorageFailure)

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

    public var storageFailure: (any StorageFailure)? {
        if case .storage(let e) = self { return e }
        return nil
    }

    /// Equal cases with equal values; two storage failures are equal when their codes and
    /// texts are.
    public static func == (a: QueryError, b: QueryError) -> Bool {
        switch (a, b) {
        case let (.invalidRecordId(x), .invalidRecordId(y)), let (.unsupportedFormat(x), .unsupportedFormat(y)),
             let (.notFound(x), .notFound(y)):
            x == y
        case let (.invalidField(n1, v1), .invalidField(n2, v2)): n1 == n2 && v1 == v2
        case let (.damagedRecord(i1, r1), .damagedRecord(i2, r2)): i1 == i2 && r1 == r2
        case let (.ambiguousPrefix(p1, c1), .ambiguousPrefix(p2, c2)): p1 == p2 && c1 == c2
        case let (.storage(x), .storage(y)): x.statusCode == y.statusCode && "\(x)" == "\(y)"
        default: false
        }
    }
}

extension QueryError: NamedError {
    public var statusCode: String { code }
}
