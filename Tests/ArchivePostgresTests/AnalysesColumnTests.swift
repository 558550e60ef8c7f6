import Archive
import ArchiveContract
import ArchivePostgres
import Foundation
import Ground
import Postgres
import Query
import Testing

/// Migration 8: the analyses state is a column of `records` (`records_by_analyses`), written
/// with every record and filled from the bodies a version-7 database already holds; the
/// `--analyses` filter reads the column, not the body.
@Suite struct AnalysesColumnTests {
    /// Records in each state (and without one), as the contract's filter test makes them.
    static func records() -> [IndexedRecord] { RecordSamples.analysed(9, seed: 57) }

    /// `records.analyses` per record ID (hex), as the server holds it ("" for NULL).
    static func column(_ pg: MigratedSchema) -> [String: String] {
        let out = pg.psql("SELECT encode(record_id, 'hex') || '|' || coalesce(analyses, '') FROM records ORDER BY 1").output
        return Dictionary(uniqueKeysWithValues: out.split(separator: "\n").map { line in
            let parts = line.split(separator: "|", omittingEmptySubsequences: false)
            return (String(parts[0]), String(parts[1]))
        })
    }

    @Test func everyWriteSetsTheColumn() throws {
        let pg = try MigratedSchema()
        let store = PostgresRecordStore(connection: pg.connection)
        var records = Self.records()
        for r in records { try store.put(r) }
        #expect(Self.column(pg) == Dictionary(uniqueKeysWithValues: records.map { ($0.recordId.hex, $0.analyses?.state.rawValue ?? "") }))
        // A record analysed later: its row follows the new body.
        records[0].analyses = RecordAnalyses(state: .done, tool: "exhibit-archive test", libraries: [:])
        try store.write { w in try w.put(records[0]) }
        #expect(Self.column(pg)[records[0].recordId.hex] == "done")
    }

    /// A database at version 7 holding records (the column dropped and the migration's row
    /// removed, as such a database is): migrating fills the column from each stored body, and
    /// the filter answers as before.
    @Test func migrationFillsTheColumnFromStoredBodies() throws {
        let pg = try MigratedSchema()
        let store = PostgresRecordStore(connection: pg.connection)
        let records = Self.records()
        for r in records { try store.put(r) }
        let expected = Self.column(pg)
        #expect(pg.psql("ALTER TABLE records DROP COLUMN analyses; DELETE FROM schema_version WHERE version = 8").status == 0)
        #expect(try pg.schema.version(pg.connection) == 7)
        #expect(try pg.schema.migrate(pg.connection) == [8])
        #expect(Self.column(pg) == expected)
        #expect(expected.values.filter { $0.isEmpty }.count == 3)
        for state in AnalysisState.allCases {
            let ids = records.filter { $0.analyses?.state == state }.map(\.recordId).sorted()
            #expect(try store.query(RecordFilter(analyses: state)).matches == ids, "\(state)")
            #expect(try store.count(RecordFilter(analyses: state)).matches == ids.count, "\(state)")
        }
    }

    /// The filter is answered from the column's index, never by decoding bodies.
    @Test func theFilterReadsTheColumn() throws {
        let pg = try MigratedSchema()
        let store = PostgresRecordStore(connection: pg.connection)
        let records = Self.records()
        for r in records { try store.put(r) }
        // The column now disagrees with the bodies for one record: the filter follows the column.
        let changed = records.first { $0.analyses?.state == .pending }!
        #expect(pg.psql("UPDATE records SET analyses = 'done' WHERE record_id = '\\x\(changed.recordId.hex)'").status == 0)
        #expect(try store.query(RecordFilter(analyses: .done)).matches.contains(changed.recordId))
        #expect(try !store.query(RecordFilter(analyses: .pending)).matches.contains(changed.recordId))
        let plan = pg.psql("SET enable_seqscan = off; EXPLAIN SELECT record_id FROM records r WHERE r.analyses = 'pending' ORDER BY record_id").output
        #expect(plan.contains("records_by_analyses"), "\(plan)")
    }
}
