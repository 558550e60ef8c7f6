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

    /// The record's JSON as LMDB's index reads it back (`JSONEncoder`, sorted keys, the report
    /// inline as base64): since exhibit-index/2 the stored body holds the report by its ID
    /// (`RecordBody`) and the record read is the body and report, both re-hashed; the
    /// PostgreSQL body is that record's JSON.
    func storedBody(_ id: ContentID) throws -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try index.get(recordId: id).map { Array(try encoder.encode($0)) }
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
