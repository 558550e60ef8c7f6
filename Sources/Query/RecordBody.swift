import Crypto
import Foundation
import Ground

/// The stored form of an `IndexedRecord` in `idx.records`, content-addressed:
///
///     body    = 0x02 ‖ bodyId(32) ‖ reportId(32) ‖ json
///     bodyId  = SHA-256(reportId ‖ json)
///     json    = the record's JSON encoding (`JSONEncoder`, sorted keys; written directly by
///               `IndexedRecord.jsonBytes()`, the same bytes) with `reportJSON` empty (`""`):
///               the report is not inside
///
/// The report itself is kept once, by its SHA-256, in `idx.reports` (`RecordIndex+Reports`);
/// a read re-hashes both the body and the report and refuses either when its bytes no longer
/// match (`index.record.damaged`). JSON keeps the body readable with `mdb_dump` and lets
/// optional fields be added without a migration; queries never decode bodies (only `get`,
/// `show` and output rows do). Version 1 (`0x01 ‖ json` with `reportJSON` as base64 inside)
/// is read only by the migration of an `exhibit-index/1` archive.
public enum RecordBody {
    public static let version: UInt8 = 2
    public static let legacyVersion: UInt8 = 1
    public static let headerCount = 1 + 32 + 32

    /// A decoded body: the record without its report, and the report's ID.
    public struct Decoded {
        public var record: IndexedRecord
        public var reportId: ContentID
    }

    public static func encode(_ record: IndexedRecord) throws -> [UInt8] {
        var bare = record
        bare.reportJSON = Data()
        let json = bare.jsonBytes()
        let reportId = record.reportId.bytes
        return [version] + ContentID(of: reportId + json).bytes + reportId + json
    }

    public static func decode(_ bytes: UnsafeRawBufferPointer, id: ContentID, decoder: JSONDecoder? = nil) throws -> Decoded {
        guard let first = bytes.first else { throw QueryError.damagedRecord(recordId: id, reason: "empty body") }
        guard first == version else {
            throw QueryError.damagedRecord(recordId: id, reason: "body version \(first)")
        }
        guard bytes.count > headerCount, let bodyId = ContentID(UnsafeRawBufferPointer(rebasing: bytes[1..<33])),
              let reportId = ContentID(UnsafeRawBufferPointer(rebasing: bytes[33..<65])) else {
            throw QueryError.damagedRecord(recordId: id, reason: "body shorter than its header")
        }
        let hashed = UnsafeRawBufferPointer(rebasing: bytes[33...])
        guard ContentID.sha256(of: hashed) == bodyId else {
            throw QueryError.damagedRecord(recordId: id, reason: "stored record bytes no longer match their SHA-256 \(bodyId)")
        }
        do {
            // The strict reader of the shape bodies are written in; anything else (and every
            // damaged body, with its error text) is `JSONDecoder`'s.
            let json = UnsafeRawBufferPointer(rebasing: bytes[headerCount...])
            let record = try IndexedRecord(strictJSON: json) ?? (decoder ?? JSONDecoder()).decode(IndexedRecord.self, from: Data(json))
            guard record.recordId == id else {
                throw QueryError.damagedRecord(recordId: id, reason: "body names record \(record.recordId)")
            }
            return Decoded(record: record, reportId: reportId)
        } catch let e as QueryError {
            throw e
        } catch {
            throw QueryError.damagedRecord(recordId: id, reason: "\(error)")
        }
    }

    /// A version-1 body (`0x01 ‖ json`, the report inside as base64), for the migration.
    public static func decodeLegacy(_ bytes: UnsafeRawBufferPointer, id: ContentID) throws -> IndexedRecord {
        guard bytes.first == legacyVersion else {
            throw QueryError.damagedRecord(recordId: id, reason: "body version \(bytes.first.map(String.init) ?? "none") in an exhibit-index/1 archive")
        }
        do {
            return try JSONDecoder().decode(IndexedRecord.self, from: Data(bytes.dropFirst()))
        } catch {
            throw QueryError.damagedRecord(recordId: id, reason: "\(error)")
        }
    }
}
