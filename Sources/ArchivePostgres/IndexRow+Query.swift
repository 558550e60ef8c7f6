import Foundation
import Ground
import Postgres
import Query

/// Between the index's record type (`Query.IndexedRecord`) and the rows of the record tables:
/// the one place that knows both, so a change to `IndexedRecord` is adapted here.
extension IndexRow {
    /// The row of `record`: its filter values, and as body its JSON exactly as LMDB's index
    /// reads it back (`JSONEncoder`, sorted keys, report inline), so both stores hand out the
    /// same bytes.
    public init(_ record: IndexedRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.init(recordId: record.recordId.bytes, body: Array(try encoder.encode(record)), kind: record.kind.rawValue,
                  integrity: record.integrity.rawValue, trust: record.trust?.rawValue, keyFingerprint: record.keyFingerprint?.hex,
                  captureTime: record.captureTime, ingestTime: record.ingestTime,
                  sidecars: Dictionary(uniqueKeysWithValues: record.sidecars.map { ($0.key.rawValue, $0.value.rawValue) }),
                  variants: record.variants.map(\.blobId.bytes))
    }

    /// The record a body holds (`index.record.damaged` when it does not decode).
    public static func record(body: [UInt8], recordId: ContentID, decoder: JSONDecoder = JSONDecoder()) throws -> IndexedRecord {
        do {
            return try decoder.decode(IndexedRecord.self, from: Data(body))
        } catch {
            throw QueryError.damagedRecord(recordId: recordId, reason: "\(error)")
        }
    }
}

extension RecordTable {
    /// `put(IndexRow(record))`.
    public static func put(_ record: IndexedRecord, in tx: Transaction) throws {
        try put(try IndexRow(record), in: tx)
    }

    /// The record with this ID, or nil.
    public static func get(recordId: ContentID, in tx: Transaction) throws -> IndexedRecord? {
        try body(recordId: recordId, in: tx).map { try IndexRow.record(body: $0, recordId: recordId) }
    }

    /// The records with these IDs, in the given order (absent IDs skipped).
    public static func records(_ ids: [ContentID], in tx: Transaction) throws -> [IndexedRecord] {
        let decoder = JSONDecoder()
        return try bodies(ids, in: tx).map { try IndexRow.record(body: $0.body, recordId: $0.id, decoder: decoder) }
    }
}
