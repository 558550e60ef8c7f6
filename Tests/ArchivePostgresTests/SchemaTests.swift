import ArchivePostgres
import Foundation
import PostgresTestSupport
import Testing
@testable import Postgres

/// The schema is created and versioned by the tool: migrations run once each, in order, one
/// transaction each; a newer database is refused by name.
@Suite struct SchemaTests {
    let test: TestSchema
    let c: Connection
    init() throws {
        test = try TestSchema()
        c = try test.connect()
    }

    func tables() -> [String] {
        test.psql("SELECT tablename FROM pg_tables WHERE schemaname = '\(test.name)' ORDER BY 1").output.split(separator: "\n").map(String.init)
    }

    @Test func migratesOnceAndInOrder() throws {
        let schema = try ArchiveSchema(namespace: test.name)
        #expect(try schema.version(c) == 0)
        #expect(throws: ArchivePostgresError.schemaMissing(namespace: test.name)) { try schema.check(c) }
        #expect(try schema.migrate(c) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try schema.version(c) == 8 && schema.latest == 8)
        try schema.check(c)
        #expect(try schema.migrate(c) == [])
        #expect(tables() == ["blob_ledger", "blob_pending", "custody_events", "custody_head", "custody_objects", "record_reports", "record_sidecars", "record_variants",
                             "records", "schema_version", "trust_anchors", "work_jobs"])
        #expect(test.psql("SELECT string_agg(version || ':' || name || ':' || tool, ',' ORDER BY version) FROM schema_version").output
                == "1:records and their index:exhibit-archive,2:custody log:exhibit-archive,3:trust anchors:exhibit-archive,4:work queue:exhibit-archive,5:count indexes:exhibit-archive,6:content-addressed records:exhibit-archive,7:S3 blob ledger:exhibit-archive,8:analyses state column:exhibit-archive")
    }

    /// Four processes' worth of connections migrate at once: each migration is applied once.
    @Test func concurrentMigrationsApplyEachOnce() throws {
        let schema = try ArchiveSchema(namespace: test.name)
        let test = self.test
        let applied = NSLock()
        nonisolated(unsafe) var all: [Int] = []
        let failures = onThreads(4) { _ in
            let mine = try schema.migrate(try test.connect())
            applied.lock(); all += mine; applied.unlock()
        }
        #expect(failures == [])
        #expect(all.sorted() == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(test.psql("SELECT count(*) FROM schema_version").output == "8")
    }

    @Test func aNewerDatabaseIsRefusedByName() throws {
        let schema = try ArchiveSchema(namespace: test.name)
        try schema.migrate(c)
        // A newer exhibit-archive migrated this database further (psql stands in for it).
        #expect(test.psql("INSERT INTO schema_version (version, name, tool) VALUES (9, 'from the future', 'exhibit-archive 9.0')").status == 0)
        let tooNew = ArchivePostgresError.schemaTooNew(namespace: test.name, database: 9, tool: 8)
        #expect(throws: tooNew) { try schema.migrate(c) }
        #expect(throws: tooNew) { try schema.check(c) }
        #expect(tooNew.code == "archive.schema.tooNew")
        #expect("\(tooNew)".contains("version 9") && "\(tooNew)".contains("use a newer exhibit-archive"))
        #expect(test.psql("SELECT max(version), count(*) FROM schema_version").output == "9|9")
    }

    @Test func anOlderDatabaseAsksForTheMigrations() throws {
        try ArchiveSchema(namespace: test.name, migrations: [.records, .custody]).migrate(c)
        let schema = try ArchiveSchema(namespace: test.name)
        #expect(throws: ArchivePostgresError.schemaTooOld(namespace: test.name, database: 2, tool: 8)) { try schema.check(c) }
        #expect(try schema.migrate(c) == [3, 4, 5, 6, 7, 8])
        try schema.check(c)
    }

    /// A migration that fails leaves nothing of itself: the database stays at the version before.
    @Test func aFailingMigrationRollsBackWhole() throws {
        let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE half_made (n int); SELECT 1 / 0;")
        let error = #expect(throws: PostgresError.self) {
            try ArchiveSchema(namespace: test.name, migrations: [.records, broken]).migrate(c)
        }
        #expect(error?.sqlState == "22012")
        #expect(try ArchiveSchema(namespace: test.name).version(c) == 1)
        #expect(!tables().contains("half_made"))
        #expect(try ArchiveSchema(namespace: test.name).migrate(c) == [2, 3, 4, 5, 6, 7, 8])
    }

    @Test func theNamespaceIsCreatedAndKeptApart() throws {
        let other = test.name + "_b"
        defer { _ = test.psql("DROP SCHEMA IF EXISTS \(other) CASCADE") }
        try ArchiveSchema(namespace: other).migrate(c)
        #expect(try ArchiveSchema(namespace: other).version(c) == 8)
        #expect(try ArchiveSchema(namespace: test.name).version(c) == 0)  // untouched
        #expect(tables() == [])
    }

    @Test func badMigrationListsAndNamespacesAreRefused() throws {
        #expect(throws: ArchivePostgresError.self) { try ArchiveSchema(migrations: [.custody]) }
        #expect(throws: ArchivePostgresError.invalidNamespace("")) { try ArchiveSchema(namespace: "") }
        #expect(throws: ArchivePostgresError.self) { try ArchiveSchema(namespace: String(repeating: "n", count: 64)) }
    }
}
