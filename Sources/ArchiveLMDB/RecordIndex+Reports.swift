import Crypto
import Foundation
import Ground
import LMDB
import Query

extension RecordIndex {
    /// Stores a report's bytes under their SHA-256 in `idx.reports` (put-if-absent: the same
    /// ID is the same bytes, stored once) and returns the ID. Reports are never deleted: the
    /// custody log's events name them. Runs in the caller's write transaction; re-runnable.
    @discardableResult
    public func putReport(_ bytes: Data, in txn: Transaction) throws -> ContentID {
        let id = ContentID(of: bytes)
        try QueryError.wrapping { _ = try txn.put(reports, id, bytes, flags: .noOverwrite) }
        return id
    }

    /// The report stored under `id`, re-hashed: `index.record.damaged` naming `recordId` when it
    /// is gone or its bytes no longer match `id`.
    public func report(_ id: ContentID, of recordId: ContentID, in txn: Transaction) throws -> Data {
        try txn.withValue(reports, id) { bytes in
            guard let bytes else { throw QueryError.damagedRecord(recordId: recordId, reason: "report \(id) is missing") }
            guard ContentID.sha256(of: bytes) == id else {
                throw QueryError.damagedRecord(recordId: recordId, reason: "stored report bytes no longer match their SHA-256 \(id)")
            }
            return Data(bytes)
        }
    }

    /// A record's body and report, both re-hashed (`RecordBody`, `report(_:of:in:)`).
    func decodeStored(_ body: UnsafeRawBufferPointer, id: ContentID, in txn: Transaction, decoder: JSONDecoder?) throws -> IndexedRecord {
        let decoded = try RecordBody.decode(body, id: id, decoder: decoder)
        var record = decoded.record
        record.reportJSON = try report(decoded.reportId, of: id, in: txn)
        return record
    }

    /// One record whose stored bytes no longer match (or do not decode).
    public struct RecordDamage: Sendable, Equatable {
        public var recordId: ContentID
        /// The report the body names, when the body itself could be read.
        public var reportId: ContentID?
        public var error: QueryError
    }

    /// The records `audit` checks: every stored body and the report it names are re-hashed.
    public struct RecordAudit: Sendable, Equatable {
        public var checked: Int
        public var damaged: [RecordDamage]
    }

    /// Re-hashes every record body and report (in ID order; one read transaction). A full scan.
    public func auditRecords() throws -> RecordAudit {
        try QueryError.wrapping {
            try environment.read { txn in
                var out = RecordAudit(checked: 0, damaged: [])
                let decoder = JSONDecoder()
                try txn.scan(records) { key, body in
                    guard let id = ContentID(key) else { return .next }
                    out.checked += 1
                    do {
                        _ = try decodeStored(body, id: id, in: txn, decoder: decoder)
                    } catch let e as QueryError {
                        let reportId = body.count >= RecordBody.headerCount
                            ? ContentID(UnsafeRawBufferPointer(rebasing: body[33..<65])) : nil
                        out.damaged.append(RecordDamage(recordId: id, reportId: reportId, error: e))
                    }
                    return .next
                }
                return out
            }
        }
    }

    /// The records with these IDs, in order (absent IDs skipped); a record whose stored bytes
    /// no longer match is left out and passed to `damaged` (the others are still returned).
    public func records(_ ids: [ContentID], damaged: (ContentID, QueryError) -> Void) throws -> [IndexedRecord] {
        try QueryError.wrapping {
            try environment.read { txn in
                let decoder = JSONDecoder()
                return try ids.compactMap { id in
                    do { return try get(id, in: txn, decoder: decoder) } catch let e as QueryError {
                        if case .damagedRecord = e { damaged(id, e); return nil }
                        throw e
                    }
                }
            }
        }
    }

    /// Migrates an `exhibit-index/1` index (bodies `0x01 ‖ json`, the report as base64 inside)
    /// to `exhibit-index/2`: each report is stored by its SHA-256 in `idx.reports` and each
    /// body rewritten (`RecordBody`), in transactions of at most `batch` records; the format
    /// is set last, so a migration cut short resumes on the next writable open. Index
    /// entries and counts are unchanged (the records' fields are).
    func migrateFromVersion1(batch: Int = 512) throws {
        let records = self.records
        let meta = self.meta
        while true {
            let done = try QueryError.wrapping {
                try environment.write { txn -> Bool in
                    var legacy: [(ContentID, IndexedRecord)] = []
                    try txn.scan(records) { key, body in
                        guard let id = ContentID(key), body.first == RecordBody.legacyVersion else { return .next }
                        legacy.append((id, try RecordBody.decodeLegacy(body, id: id)))
                        return legacy.count >= batch ? .stop : .next
                    }
                    for (id, record) in legacy {
                        try putReport(record.reportJSON, in: txn)
                        try txn.put(records, id, try RecordBody.encode(record))
                    }
                    if legacy.count < batch {
                        try txn.put(meta, Array("format".utf8), Array(Self.format.utf8))
                        return true
                    }
                    return false
                }
            }
            if done { return }
        }
    }
}
