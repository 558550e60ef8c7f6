import Foundation
import Ground

/// The stored form of an `IndexedRecord` in `idx.records`: the byte `0x01` (body version)
/// followed by the record's JSON encoding (`JSONEncoder`, sorted keys; `reportJSON` as base64).
/// JSON keeps the body readable with `mdb_dump` and lets optional fields be added without a
/// migration; queries never decode bodies (only `get`, `show` and output rows do).
enum RecordBody {
    static let version: UInt8 = 1

    static func encode(_ record: IndexedRecord) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return [version] + Array(try encoder.encode(record))
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, id: ContentID, decoder: JSONDecoder = JSONDecoder()) throws -> IndexedRecord {
        guard let first = bytes.first else { throw QueryError.damagedRecord(recordId: id, reason: "empty body") }
        guard first == version else {
            throw QueryError.damagedRecord(recordId: id, reason: "body version \(first)")
        }
        do {
            return try decoder.decode(IndexedRecord.self, from: Data(bytes.dropFirst()))
        } catch {
            throw QueryError.damagedRecord(recordId: id, reason: "\(error)")
        }
    }
}
