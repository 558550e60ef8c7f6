import ArchiveLMDB
import CAS
import Foundation
import Ground
import LMDB
import Query

/// LMDB's record index in a temporary archive: the reference the PostgreSQL tables must answer
/// exactly like.
final class LMDBReference {
    let path: String
    let store: ContentStore
    let index: RecordIndex

    init() throws {
        path = NSTemporaryDirectory() + "archive-pg-ref-" + UUID().uuidString
        store = try ContentStore.create(at: path)
        index = try RecordIndex(environment: store.environment)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func put(_ records: [IndexedRecord]) throws {
        try store.environment.write { txn in for r in records { try index.put(r, in: txn) } }
    }

    /// The record's stored body as LMDB keeps it in `idx.records` (`RecordBody` format 2: the
    /// report named by its SHA-256), which the PostgreSQL body is byte for byte (migration 6).
    func storedBody(_ id: ContentID) throws -> [UInt8]? {
        let bodies = try store.environment.database("idx.records")
        return try store.environment.read { txn in try txn.value(bodies, id.bytes) }
    }
}

/// `#require` without Testing's macro (usable outside a test function's body).
func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw Missing(what: what) }
    return value
}

struct Missing: Error, CustomStringConvertible {
    let what: String
    var description: String { "missing \(what)" }
}
