import Foundation
import Ground
import LMDB
import Query

/// The record index: every `IndexedRecord` and its secondary indexes, in named databases of
/// the archive's LMDB environment (shared with the CAS). See docs/query.md for the schema.
///
/// - `idx.meta`     — `format` → `exhibit-index/2` (an `exhibit-index/1` index is migrated
///   on its first writable open and refused read-only, see `init`).
/// - `idx.records`  — recordId (32 B) → `RecordBody` (0x02 ‖ body SHA-256 ‖ report ID ‖ JSON).
/// - `idx.reports`  — report ID = SHA-256 of the report (32 B) → the report's bytes.
/// - `idx.variants` — variant blob ID (32 B) → recordId (32 B).
/// - `idx.byKey`, `idx.byTime`, `idx.byIntegrity`, `idx.byTrust`, `idx.byKind`, `idx.byIngest`
///   — `value 0x00 recordId` → empty.
/// - `idx.counts`   — counts of the index entries (see `IndexCounters`).
/// - `idx.bySidecar` — `state 0x00 sink 0x00 recordId`, `state 0x00 0x00 recordId` (some sink in
///   that state) and `0x00 sink 0x00 recordId` (sink present) → empty.
///
/// Writes happen in the caller's transaction (`put(_:in:)`), so ingest commits a capture's
/// blobs, record and index entries together. Every write method is re-runnable (it derives all
/// it writes from its arguments and the transaction), as `Environment.write` requires.
public final class RecordIndex: @unchecked Sendable {
    public static let format = "exhibit-index/2"
    /// The format before records were content-addressed (report as base64 inside the body).
    public static let formatVersion1 = "exhibit-index/1"

    public let environment: Environment
    let meta: Database
    let records: Database
    let reports: Database
    let variants: Database
    let counts: Database
    let indexes: [IndexEntry.Index: Database]

    /// Opens the index databases, creating them (in one write transaction) when the archive
    /// has none yet. Do not call inside a `read` or `write` closure.
    public init(environment: Environment) throws {
        self.environment = environment
        let names = ["idx.meta", "idx.records", "idx.reports", "idx.variants", "idx.counts"] + IndexEntry.Index.allCases.map(\.rawValue)
        let dbs: [String: Database] = try QueryError.wrapping {
            var out: [String: Database] = [:]
            for name in names {
                do {
                    out[name] = try environment.database(name)
                } catch let e as LMDBError where e == .notFound {
                    // An archive written before an index existed, opened read-only: that index
                    // is absent (it would be empty: no record was written with its entries).
                    if environment.options.readOnly && name == IndexEntry.Index.analyses.rawValue { continue }
                    out[name] = try environment.database(name, create: true)
                }
            }
            return out
        }
        func db(_ name: String) -> Database { dbs[name]! }  // every name but a newer index's was opened above
        meta = db("idx.meta")
        records = db("idx.records")
        reports = db("idx.reports")
        variants = db("idx.variants")
        counts = db("idx.counts")
        var indexes: [IndexEntry.Index: Database] = [:]
        for i in IndexEntry.Index.allCases { indexes[i] = dbs[i.rawValue] }
        self.indexes = indexes

        let meta = self.meta
        let formatKey = Array("format".utf8)
        let stored = try QueryError.wrapping {
            try environment.read { txn in try txn.value(meta, formatKey).map { String(decoding: $0, as: UTF8.self) } }
        }
        if stored == Self.formatVersion1 {
            // Written before records were content-addressed: migrated when writable; a
            // read-only open cannot, and refuses rather than trust unhashed bodies.
            guard !environment.options.readOnly else {
                throw QueryError.unsupportedFormat(Self.formatVersion1 + " (records not content-addressed yet; open the archive writable once to migrate it to " + Self.format + ")")
            }
            try migrateFromVersion1()
        } else if let stored {
            guard stored == Self.format else { throw QueryError.unsupportedFormat(stored) }
        } else if !environment.options.readOnly {
            try QueryError.wrapping {
                try environment.write { txn in
                    _ = try txn.put(meta, formatKey, Array(Self.format.utf8), flags: .noOverwrite)
                }
            }
        }
    }

    func database(_ index: IndexEntry.Index) -> Database { indexes[index]! }  // filled for allCases in init (`hasIndex`)

    /// False only for an index newer than a read-only archive (absent, so empty; its counts are 0).
    func hasIndex(_ index: IndexEntry.Index) -> Bool { indexes[index] != nil }

    // MARK: Reads

    /// The record with this ID, or nil. Its body and report are re-hashed: a record whose
    /// stored bytes no longer match throws `index.record.damaged` naming it.
    public func get(recordId: ContentID, in txn: Transaction) throws -> IndexedRecord? {
        try get(recordId, in: txn)
    }

    public func get(recordId: ContentID) throws -> IndexedRecord? {
        try QueryError.wrapping { try environment.read { try get(recordId: recordId, in: $0) } }
    }

    func get(_ id: ContentID, in txn: Transaction, decoder: JSONDecoder? = nil) throws -> IndexedRecord? {
        try txn.withValue(records, id) { body in
            try body.map { try decodeStored($0, id: id, in: txn, decoder: decoder) }
        }
    }

    /// Whether a record with this ID exists (the body is not decoded).
    public func contains(recordId: ContentID, in txn: Transaction) throws -> Bool {
        try txn.contains(records, recordId)
    }

    public func contains(recordId: ContentID) throws -> Bool {
        try QueryError.wrapping { try environment.read { try contains(recordId: recordId, in: $0) } }
    }

    /// The record that a delivery-file variant with this blob ID belongs to, or nil
    /// ("is this file already known?").
    public func recordId(forVariant blobId: ContentID, in txn: Transaction) throws -> ContentID? {
        try txn.withValue(variants, blobId) { v in v.flatMap { ContentID($0) } }
    }

    public func recordId(forVariant blobId: ContentID) throws -> ContentID? {
        try QueryError.wrapping { try environment.read { try recordId(forVariant: blobId, in: $0) } }
    }

    /// Number of records (O(1): the database's entry count).
    public func count(in txn: Transaction) throws -> Int { try txn.count(records) }

    public var count: Int {
        get throws { try QueryError.wrapping { try environment.read { try count(in: $0) } } }
    }

    /// The IDs of records whose hex ID starts with `prefix` (lowercase hex, 1…64 digits), in
    /// order, at most `limit`.
    public func recordIds(withPrefix prefix: String, limit: Int = 2) throws -> [ContentID] {
        let digits = Array(prefix.utf8)
        guard (1...64).contains(digits.count), ContentID.isLowercaseHex(prefix) else {
            throw QueryError.invalidRecordId(prefix)
        }
        var bytes = [UInt8]()
        var i = 0
        while i + 1 < digits.count {
            bytes.append(ContentID.nibble(digits[i])! << 4 | ContentID.nibble(digits[i + 1])!)  // checked above
            i += 2
        }
        let oddNibble: UInt8? = digits.count % 2 == 1 ? ContentID.nibble(digits[digits.count - 1]) : nil
        var out: [ContentID] = []
        try QueryError.wrapping {
            try environment.read { txn in
                try txn.scan(records, prefix: bytes) { key, _ in
                    if let n = oddNibble, key.count > bytes.count, key[bytes.count] >> 4 != n {
                        return key[bytes.count] >> 4 > n ? .stop : .next
                    }
                    if let id = ContentID(key) { out.append(id) }
                    return out.count >= limit ? .stop : .next
                }
            }
        }
        return out
    }
}
