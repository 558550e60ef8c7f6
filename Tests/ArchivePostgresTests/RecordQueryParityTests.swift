import ArchiveContract
import ArchivePostgres
import Foundation
import Ground
import Postgres
import Query
import Testing

/// The PostgreSQL record tables and LMDB's record index hold the same records and must give the
/// same answers: every list (matches and indeterminate, in order), every count, every `limit`
/// cut, every refusal, and the same body bytes — before and after records are replaced and
/// removed.
@Suite struct RecordQueryParityTests {
    let pg: MigratedSchema
    let lmdb: LMDBReference
    let records: [IndexedRecord]

    init() throws {
        pg = try MigratedSchema()
        lmdb = try LMDBReference()
        records = (0..<240).map { RecordSamples.record($0) }
        try lmdb.put(records)
        let records = self.records
        try pg.connection.write { tx in for r in records { try RecordTable.put(r, in: tx) } }
    }

    /// Compares every answer for `filters`; returns how many lists were non-empty (so a test
    /// can show it compared something).
    @discardableResult
    func compare(_ filters: [RecordFilter], limits: [Int?] = [nil]) throws -> Int {
        var nonEmpty = 0
        try pg.connection.read { tx throws in
            for f in filters {
                for limit in limits {
                    let want = try lmdb.index.query(f, limit: limit)
                    let got = try RecordTable.query(f, limit: limit, in: tx)
                    #expect(got == want, "query \(f) limit \(String(describing: limit))")
                    if !want.matches.isEmpty { nonEmpty += 1 }
                    if !want.indeterminate.isEmpty { nonEmpty += 1 }
                }
                #expect(try RecordTable.count(f, in: tx) == lmdb.index.count(f), "count \(f)")
            }
        }
        return nonEmpty
    }

    @Test func everyFilterAndCombinationAnswersAsLMDB() throws {
        let filters = RecordSamples.filters(700)
        let nonEmpty = try compare(filters)
        #expect(nonEmpty > 200)
        // Indeterminate answers really occur, at several rungs.
        let withIndeterminate = try filters.filter { try !lmdb.index.query($0).indeterminate.isEmpty }.count
        #expect(withIndeterminate > 50)
    }

    @Test func limitsCutTheSameFirstAnswers() throws {
        try compare(RecordSamples.filters(150, seed: 11), limits: [1, 3, 50])
        let error = #expect(throws: QueryError.self) { try pg.connection.read { try RecordTable.query(RecordFilter(), limit: 0, in: $0) } }
        #expect(error == .invalidField(name: "limit", value: "0"))
    }

    @Test func replacedAndRemovedRecordsMoveAsInLMDB() throws {
        // New versions of a third of the records (other states, sinks, trust, times, variants),
        // and a tenth removed.
        let replaced = stride(from: 0, to: records.count, by: 3).map { n -> IndexedRecord in
            var r = RecordSamples.record(n + 10_000)
            r.recordId = records[n].recordId
            if n % 2 == 0 { r.variants = Array(records[n].variants.prefix(1)) }  // keeps one old variant
            return r
        }
        let removed = stride(from: 1, to: records.count, by: 10).map { records[$0].recordId }
        try lmdb.put(replaced)
        try lmdb.store.environment.write { txn in for id in removed { try lmdb.index.remove(recordId: id, in: txn) } }
        try pg.connection.write { tx throws in
            for r in replaced { try RecordTable.put(r, in: tx) }
            for id in removed { #expect(try RecordTable.remove(recordId: id, in: tx)) }
        }
        try compare(RecordSamples.filters(300, seed: 3))
        // Variant mappings, existence and ID prefixes agree for every record and variant ever written.
        try pg.connection.read { tx throws in
            for r in records + replaced {
                #expect(try RecordTable.contains(recordId: r.recordId, in: tx) == lmdb.index.contains(recordId: r.recordId))
                for v in r.variants {
                    let got = try RecordTable.recordId(forVariant: v.blobId, in: tx)
                    #expect(got == (try lmdb.index.recordId(forVariant: v.blobId)))
                }
                for n in [1, 2, 5, 63, 64] {
                    let p = String(r.recordId.hex.prefix(n))
                    #expect(try RecordTable.recordIds(withPrefix: p, limit: 3, in: tx) == lmdb.index.recordIds(withPrefix: p, limit: 3))
                }
            }
            #expect(try RecordTable.count(in: tx) == lmdb.index.count)
        }
    }

    /// Bodies are byte for byte LMDB's stored bodies, and records read back equal LMDB's, so
    /// `show --json` and `query --json` print the same.
    @Test func bodiesAreLMDBsBytes() throws {
        let ids = records.map(\.recordId)
        try pg.connection.read { tx throws in
            for id in ids.prefix(60) {
                let body = try RecordTable.body(recordId: id, in: tx)
                #expect(body == (try lmdb.storedBody(id)), "\(id)")
            }
            let shuffled = ids.reversed() + [try require(ContentID(hex: String(repeating: "a", count: 64)))]
            #expect(try RecordTable.records(Array(shuffled), in: tx) == lmdb.index.records(Array(shuffled)))
            #expect(try RecordTable.get(recordId: ids[7], in: tx) == lmdb.index.get(recordId: ids[7]))
        }
    }

    /// The same values are refused, with the same errors (the enumerated fields — integrity,
    /// sidecar state and sink, kind, trust — and the IDs are typed: a bad one cannot be written).
    @Test func badFiltersAndRecordsAreRefusedAlike() throws {
        let bad = [RecordFilter(keyPrefix: ""), RecordFilter(keyPrefix: "ABC"), RecordFilter(keyPrefix: "xyz"),
                   RecordFilter(timePrefix: ""), RecordFilter(timePrefix: "2026\u{0}"), RecordFilter(ingestPrefix: ""),
                   RecordFilter(ingestPrefix: "2026\u{0}"), RecordFilter(keyPrefix: "ab", timePrefix: "")]
        for f in bad {
            let want = #expect(throws: QueryError.self) { try lmdb.index.query(f) }
            let got = #expect(throws: QueryError.self) { try pg.connection.read { try RecordTable.query(f, in: $0) } }
            #expect(got == want, "\(f)")
            let gotCount = #expect(throws: QueryError.self) { try pg.connection.read { try RecordTable.count(f, in: $0) } }
            #expect(gotCount == want)
        }
        var r = RecordSamples.record(1)
        r.captureTime = ""
        let want = #expect(throws: QueryError.self) { try lmdb.put([r]) }
        let got = #expect(throws: QueryError.self) { try pg.connection.write { try RecordTable.put(r, in: $0) } }
        #expect(got == want)
        #expect(throws: QueryError.invalidRecordId("x")) { try pg.connection.read { try RecordTable.recordIds(withPrefix: "x", in: $0) } }
    }
}
