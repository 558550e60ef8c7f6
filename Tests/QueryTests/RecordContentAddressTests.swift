import ArchiveLMDB
import CAS
import Crypto
import Foundation
import Ground
import LMDB
import Query
import TestLiterals
import Testing

/// Records are content-addressed (issue 12, item 4): the report is kept once by its SHA-256 in
/// `idx.reports`, the body names it and carries its own SHA-256, every read re-hashes both, a
/// changed byte is `index.record.damaged` naming the record (the others still read), and an
/// `exhibit-index/1` archive is migrated on a writable open and refused read-only.
@Suite struct RecordContentAddressTests {
    static func raw(_ a: TestArchive, _ db: String, _ key: ContentID) throws -> [UInt8]? {
        let d = try a.store.environment.database(db)
        return try a.store.environment.read { try $0.value(d, key) }
    }

    static func overwrite(_ a: TestArchive, _ db: String, _ key: ContentID, _ bytes: [UInt8]) throws {
        let d = try a.store.environment.database(db)
        try a.store.environment.write { txn in _ = try txn.put(d, key, bytes) }
    }

    @Test func reportStoredOnceByItsIDAndNamedByTheBody() throws {
        let a = try TestArchive()
        let recs = (0..<3).map { record($0, sidecars: ["audio": "mismatch"]) }
        try a.put(recs)
        for r in recs {
            #expect(try a.index.get(recordId: r.recordId) == r)
            let body = try #require(try Self.raw(a, "idx.records", r.recordId))
            #expect(body[0] == 2 && Array(body[33..<65]) == r.reportId.bytes)
            #expect(ContentID(of: Array(body[33...])).bytes == Array(body[1..<33]))
            let text = String(decoding: body[65...], as: UTF8.self)
            #expect(text.contains("\"reportJSON\":\"\"") && !text.contains(r.reportJSON.base64EncodedString()))
            #expect(try Self.raw(a, "idx.reports", r.reportId) == Array(r.reportJSON))
        }
    }

    @Test func aChangedByteOfAReportOrABodyIsNamedAndTheOthersStillRead() throws {
        let a = try TestArchive()
        let recs = (0..<4).map { record($0) }
        try a.put(recs)
        // One byte of record 1's report.
        var report = Array(recs[1].reportJSON)
        report[2] ^= 0x01
        try Self.overwrite(a, "idx.reports", recs[1].reportId, report)
        // One byte of record 2's body JSON (same length).
        var body = try #require(try Self.raw(a, "idx.records", recs[2].recordId))
        let at = try #require(body.indices.last { body[$0] == UInt8(ascii: "t") })
        body[at] = UInt8(ascii: "T")
        try Self.overwrite(a, "idx.records", recs[2].recordId, body)

        #expect(throws: QueryError.self) { try a.index.get(recordId: recs[1].recordId) }
        do {
            _ = try a.index.get(recordId: recs[2].recordId)
            Issue.record("a changed body was read")
        } catch let e as QueryError {
            #expect(e.code == StatusCode.indexRecordDamaged && e.description.contains(recs[2].recordId.hex))
        }
        var named: [ContentID] = []
        let read = try a.index.records(recs.map(\.recordId)) { id, e in
            #expect(e.code == StatusCode.indexRecordDamaged)
            named.append(id)
        }
        #expect(read == [recs[0], recs[3]])
        #expect(named == [recs[1].recordId, recs[2].recordId])
        let audit = try a.index.auditRecords()
        #expect(audit.checked == 4)
        #expect(Set(audit.damaged.map(\.recordId)) == [recs[1].recordId, recs[2].recordId])
        #expect(audit.damaged.first { $0.recordId == recs[1].recordId }?.reportId == recs[1].reportId)
    }

    /// Writes `recs` as an `exhibit-index/1` archive would hold them (0x01 ‖ JSON with the
    /// report as base64, no `idx.reports`).
    static func writeVersion1(_ store: ContentStore, _ recs: [IndexedRecord]) throws {
        let env = store.environment
        let records = try env.database("idx.records")
        let meta = try env.database("idx.meta")
        let reports = try env.database("idx.reports")
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        try env.write { txn in
            for r in recs {
                try txn.put(records, r.recordId, [1] + Array(try e.encode(r)))
                _ = try txn.delete(reports, r.reportId)
            }
            try txn.put(meta, Array("format".utf8), Array("exhibit-index/1".utf8))
        }
    }

    @Test func version1ArchiveIsMigratedWhenWritableAndRefusedReadOnly() throws {
        let path = NSTemporaryDirectory() + "query-test-v1-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recs = (0..<3).map { record($0, sidecars: ["audio": "verified"]) }
        do {
            let store = try ContentStore.create(at: path)
            let index = try RecordIndex(environment: store.environment)
            try store.environment.write { txn in for r in recs { try index.put(r, in: txn) } }
            try Self.writeVersion1(store, recs)
        }
        // Read-only: refused with a code, nothing trusted unhashed.
        var ro = ContentStore.Options()
        ro.environment.readOnly = true
        do {
            let store = try ContentStore.open(at: path, options: ro)
            do {
                _ = try RecordIndex(environment: store.environment)
                Issue.record("a version-1 index opened read-only")
            } catch let e as QueryError {
                #expect(e.code == StatusCode.indexUnsupportedFormat && e.description.contains("exhibit-index/1"))
            }
        }
        // Writable: migrated, every record reads back equal, the queries unchanged.
        do {
            let store = try ContentStore.open(at: path)
            let index = try RecordIndex(environment: store.environment)
            for r in recs { #expect(try index.get(recordId: r.recordId) == r) }
            #expect(try index.query(RecordFilter(sidecarState: "verified")).matches == ids([0, 1, 2]))
            #expect(try index.checkCounters().isEmpty)
            let audit = try index.auditRecords()
            #expect(audit.checked == 3 && audit.damaged.isEmpty)
            let meta = try store.environment.database("idx.meta")
            #expect(try store.environment.read { try $0.value(meta, Array("format".utf8)) } == Array("exhibit-index/2".utf8))
        }
    }
}
