import Archive
import Foundation
import Ground
import Postgres
import Query

/// Between the index's record type (`Query.IndexedRecord`) and the rows of the record tables:
/// the one place that knows both, so a change to `IndexedRecord` is adapted here.
extension IndexRow {
    /// The row of `record`: its filter values, its body as LMDB's index stores it
    /// (`RecordBody.encode`: format 2, the report named by its SHA-256) and its report, so both
    /// stores keep and hand out the same bytes.
    public init(_ record: IndexedRecord) throws {
        self.init(recordId: record.recordId.bytes, body: try RecordBody.encode(record), report: Array(record.reportJSON),
                  kind: record.kind.rawValue, integrity: record.integrity.rawValue, trust: record.trust?.rawValue,
                  keyFingerprint: record.keyFingerprint?.hex, captureTime: record.captureTime, ingestTime: record.ingestTime,
                  sidecars: Dictionary(uniqueKeysWithValues: record.sidecars.map { ($0.key.rawValue, $0.value.rawValue) }),
                  variants: record.variants.map(\.blobId.bytes), analyses: record.analyses?.state.rawValue)
    }

    /// The record a stored row holds, both its body and its report re-hashed as LMDB's index
    /// does (`RecordBody.decode`, `RecordIndex.report`): `index.record.damaged` naming
    /// `recordId` when the body is not format 2, does not match its SHA-256 or does not decode,
    /// or when its report is missing or no longer matches the ID the body names.
    public static func record(format: Int, body: [UInt8], report: [UInt8]?, recordId: ContentID,
                              decoder: JSONDecoder? = nil) throws -> IndexedRecord {
        guard format == Int(RecordBody.version) else {
            throw QueryError.damagedRecord(recordId: recordId, reason: "body format \(format) is not content-addressed")
        }
        let decoded = try body.withUnsafeBytes { try RecordBody.decode($0, id: recordId, decoder: decoder) }
        guard let report else {
            throw QueryError.damagedRecord(recordId: recordId, reason: "report \(decoded.reportId) is missing")
        }
        guard ContentID.sha256(of: report) == decoded.reportId else {
            throw QueryError.damagedRecord(recordId: recordId, reason: "stored report bytes no longer match their SHA-256 \(decoded.reportId)")
        }
        var record = decoded.record
        record.reportJSON = Data(report)
        return record
    }
}

extension RecordTable {
    /// `put(IndexRow(record))`.
    public static func put(_ record: IndexedRecord, in tx: Transaction) throws {
        try put(try IndexRow(record), in: tx)
    }

    /// The record with this ID, re-hashed (`IndexRow.record`), or nil; with `forUpdate` its row
    /// stays locked until `tx` ends (`RecordTable.stored(_:in:lockingRows:)`).
    public static func get(recordId: ContentID, in tx: Transaction, forUpdate: Bool = false) throws -> IndexedRecord? {
        try stored([recordId], in: tx, lockingRows: forUpdate).first.map { try IndexRow.record(format: $0.format, body: $0.body, report: $0.report, recordId: recordId) }
    }

    /// The records with these IDs, in the given order (absent IDs skipped), each re-hashed; a
    /// damaged one throws.
    public static func records(_ ids: [ContentID], in tx: Transaction) throws -> [IndexedRecord] {
        try records(ids, in: tx) { _, error in throw error }
    }

    /// The records with these IDs, in the given order (absent IDs skipped); a damaged one is
    /// passed to `damaged` (which may throw it) and left out.
    public static func records(_ ids: [ContentID], in tx: Transaction,
                               damaged: (ContentID, QueryError) throws -> Void) throws -> [IndexedRecord] {
        let decoder = JSONDecoder()
        return try stored(ids, in: tx).compactMap { row in
            do {
                return try IndexRow.record(format: row.format, body: row.body, report: row.report, recordId: row.id, decoder: decoder)
            } catch let e as QueryError {
                try damaged(row.id, e)
                return nil
            }
        }
    }

    /// Every record re-hashed in ID order (`RecordStore.audit`), read in pages of `page` IDs
    /// inside the caller's transaction (one snapshot under REPEATABLE READ). A damaged record is
    /// listed with the report its body names (bytes 33..<65, when the body is that long).
    public static func audit(in tx: Transaction, page: Int = 1000) throws -> RecordAudit {
        var out = RecordAudit()
        var after = [UInt8]()
        let decoder = JSONDecoder()
        while true {
            let ids = try tx.execute("SELECT record_id FROM records WHERE record_id > $1 ORDER BY record_id LIMIT $2",
                                     [.bytes(after), .int64(Int64(page))]).map(contentID)
            for row in try stored(ids, in: tx) {
                out.checked += 1
                do {
                    _ = try IndexRow.record(format: row.format, body: row.body, report: row.report, recordId: row.id, decoder: decoder)
                } catch let e as QueryError {
                    let reportId = row.body.count >= RecordBody.headerCount ? ContentID(digest: Array(row.body[33..<65])) : nil
                    out.damaged.append(RecordDamage(recordId: row.id, reportId: reportId, error: e))
                }
            }
            guard ids.count == page, let last = ids.last else { return out }
            after = last.bytes
        }
    }
}
