import Foundation
import Postgres
import Query

/// Between the index's record type (`Query.IndexedRecord`) and the rows of the record tables:
/// the one place that knows both, so a change to `IndexedRecord` is adapted here.
extension IndexRow {
    /// The row of `record`: its filter values, and as body its JSON exactly as LMDB's index
    /// encodes it (`JSONEncoder`, sorted keys), so both stores hand out the same bytes.
    public init(_ record: IndexedRecord) throws {
        guard let id = RecordID(hex: record.recordId) else { throw QueryError.invalidRecordId(record.recordId) }
        var variants: [[UInt8]] = []
        for v in record.variants {
            guard let b = RecordID(hex: v.blobId) else { throw QueryError.invalidField(name: "variants.blobId", value: v.blobId) }
            variants.append(b.bytes)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.init(recordId: id.bytes, body: Array(try encoder.encode(record)), kind: record.kind, integrity: record.integrity,
                  trust: record.trust, keyFingerprint: record.keyFingerprint, captureTime: record.captureTime,
                  ingestTime: record.ingestTime, sidecars: record.sidecars, variants: variants)
    }

    /// The record a body holds (`index.record.damaged` when it does not decode).
    public static func record(body: [UInt8], recordId: String, decoder: JSONDecoder = JSONDecoder()) throws -> IndexedRecord {
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

    /// The record with this ID (64 lowercase hex), or nil.
    public static func get(recordId: String, in tx: Transaction) throws -> IndexedRecord? {
        guard let id = RecordID(hex: recordId) else { throw QueryError.invalidRecordId(recordId) }
        return try body(recordId: id.bytes, in: tx).map { try IndexRow.record(body: $0, recordId: recordId) }
    }

    /// The records with these IDs, in the given order (absent IDs skipped).
    public static func records(_ ids: [String], in tx: Transaction) throws -> [IndexedRecord] {
        let bytes = try ids.map { hex in
            guard let id = RecordID(hex: hex) else { throw QueryError.invalidRecordId(hex) }
            return id.bytes
        }
        let decoder = JSONDecoder()
        return try bodies(bytes, in: tx).map { try IndexRow.record(body: $0.body, recordId: Hex.encode($0.id), decoder: decoder) }
    }
}
