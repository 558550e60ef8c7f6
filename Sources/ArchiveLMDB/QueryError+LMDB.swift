import LMDB
import Query

extension QueryError {
    /// Runs `body`, turning an `LMDBError` into `.storage` (the record index's failures of the
    /// medium: `index.storage`, `index.storage.diskFull`).
    static func wrapping<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as LMDBError { throw QueryError.storage(e) }
    }
}
