/// An error with a stable, named code from the status-code table (StatusCode.swift): what
/// the CLI prints first, tests compare against and reports carry. This protocol lets a layer
/// that sees errors of several implementations (the blob stores behind `Archive`) read the
/// code without knowing the error's type.
public protocol NamedError: Error {
    /// The code, e.g. `cas.notFound`, `s3.integrity.mismatch`.
    var statusCode: String { get }
}

/// A failure of the storage medium itself — the disk full, a database damaged, locked or not
/// writable here — as opposed to a record or blob that is wrong: a command stops (exit 3) and
/// what was committed before stays. LMDB's `LMDBError` is one (`cas.storage.*`, `cas.readOnly`);
/// a layer above (ingest's writer, the CLI) reads it through this protocol without importing
/// the medium's module.
public protocol StorageFailure: NamedError {
    /// The line the CLI prints after `Error: `: the code, what it means for the user when
    /// there is something to say, and the medium's own message.
    var explanation: String { get }
    /// True when the medium is out of space (the index reports `index.storage.diskFull` for it).
    var isDiskFull: Bool { get }
}

extension StorageFailure {
    public var isDiskFull: Bool { false }
}

/// An error of a higher layer that may carry the storage failure under it (an index or custody
/// error over LMDB: `QueryError.storage`, `CASError.storage`).
public protocol CarriesStorageFailure: Error {
    var storageFailure: (any StorageFailure)? { get }
}

/// The storage failure `error` is or carries, else nil.
public func storageFailure(in error: any Error) -> (any StorageFailure)? {
    if let e = error as? any StorageFailure { return e }
    return (error as? any CarriesStorageFailure)?.storageFailure
}
