import Archive
import ArchivePostgres
import Foundation
import Ground
@testable import Indexer
import Postgres
import PostgresTestSupport
import Testing

/// `init --index postgresql://…` (docs/postgres.md "init --index").
@Suite struct InitIndexTests {
    @Test func initRecordsTheIndexAndMigratesTheSchema() throws {
        let f = try PostgresArchiveFixture()
        let first = f.initArchive()
        #expect(first.code == .success, "\(first.err)")
        #expect(first.out.contains("index \(f.url) schema \(f.schema.name) (schema version \(ArchiveSchema.current.count); migrations 1, 2, 3, 4, 5, 6, 7, 8 applied)"))
        let json = try String(contentsOfFile: f.archive + "/archive.json", encoding: .utf8)
        #expect(json == #"{"blobs":{"store":"lmdb"},"format":2,"index":{"connection":"\#(f.url)","schema":"\#(f.schema.name)","store":"postgresql"}}"# + "\n")
        let mode = try FileManager.default.attributesOfItem(atPath: f.archive + "/archive.json")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(f.schema.psql("SELECT max(version) FROM schema_version").output == "\(ArchiveSchema.current.count)")

        // Again: nothing to migrate; the same index is kept.
        let again = f.cli(["init", "--archive", f.archive, "--index", f.url, "--index-schema", f.schema.name, "--json"])
        #expect(again.code == .success)
        #expect(again.out.contains(#""indexStore":"postgresql""#) && again.out.contains(#""indexMigrationsApplied":[]"#))

        // stats names the index (no connection needed), show's JSON too once there is a record.
        let stats = f.cli(["stats", "--archive", f.archive, "--json"])
        #expect(stats.out.contains(#""indexLocation":"\#(f.url.replacingOccurrences(of: "/", with: "\\/")) schema \#(f.schema.name)""#)
                || stats.out.contains(#""indexLocation":"\#(f.url) schema \#(f.schema.name)""#), "\(stats.out)")
        // An index elsewhere is refused: init never moves records.
        let other = f.cli(["init", "--archive", f.archive, "--index", f.url, "--index-schema", f.schema.name + "_other"])
        #expect(other.code == .usage)
        #expect(other.err.contains("init does not move it"))
    }

    @Test func aPasswordInTheConnectionStringIsRefusedAndNeverRecorded() throws {
        let f = try PostgresArchiveFixture()
        for text in ["postgresql://exhibit:hunter2secret@127.0.0.1:1/exhibit", "host=127.0.0.1 password=hunter2secret dbname=exhibit"] {
            let r = f.cli(["init", "--archive", f.archive, "--index", text])
            #expect(r.code == .usage, "\(text): \(r.err)")
            #expect(r.err.contains("must not carry a password"))
            #expect(!r.err.contains("hunter2secret") && !r.out.contains("hunter2secret"))
            #expect(!FileManager.default.fileExists(atPath: f.archive), "nothing is created")
        }
        let unparsable = f.cli(["init", "--archive", f.archive, "--index", "host='unterminated password=hunter2secret"])
        #expect(unparsable.code == .usage)
        #expect(!unparsable.err.contains("hunter2secret"))
    }

    @Test func aNewerSchemaIsRefusedByName() throws {
        let f = try PostgresArchiveFixture()
        #expect(f.initArchive().code == .success)
        #expect(f.schema.psql("INSERT INTO schema_version (version, name, tool) VALUES (99, 'future', 'a newer tool')").status == 0)
        let again = f.initArchive()
        #expect(again.code == .archiveUnusable)
        #expect(again.err.contains(StatusCode.archiveSchemaTooNew))
        let stats = f.cli(["queue", "--archive", f.archive])
        #expect(stats.code == .archiveUnusable)
        #expect(stats.err.contains(StatusCode.archiveSchemaTooNew))
    }

    @Test func anUnreachableServerIsExitThreeAndNothingIsRecorded() throws {
        let f = try PostgresArchiveFixture()
        let r = f.cli(["init", "--archive", f.archive, "--index", "postgresql://exhibit@127.0.0.1:1/exhibit?connect_timeout=2"])
        #expect(r.code == .archiveUnusable, "\(r.err)")
        #expect(r.err.contains(StatusCode.pgConnectionFailed))
        #expect(try ArchiveConfiguration.load(archive: f.archive).index == nil)
        // The same archive then takes a reachable index.
        #expect(f.initArchive().code == .success)
        #expect(try ArchiveConfiguration.load(archive: f.archive).index?.schema == f.schema.name)
    }

    @Test func anArchiveWithLMDBRecordsIsNotMoved() throws {
        let f = try PostgresArchiveFixture()
        let dump = try f.dump(stills: 1, videos: 0)
        #expect(f.cli(["init", "--archive", f.archive]).code == .success)
        #expect(f.cli(["ingest", "--archive", f.archive, dump]).code != .archiveUnusable)
        let r = f.initArchive()
        #expect(r.code == .usage)
        #expect(r.err.contains("holds records or custody events in its LMDB environment"))
        #expect(try ArchiveConfiguration.load(archive: f.archive).index == nil)
    }

    @Test func queueCommandsNeedAPostgresIndex() throws {
        let f = try PostgresArchiveFixture()
        #expect(f.cli(["init", "--archive", f.archive]).code == .success)
        for args in [["queue"], ["worker"], ["ingest", "--enqueue", f.root]] {
            let r = f.cli(args + ["--archive", f.archive])
            #expect(r.code == .usage, "\(args)")
            #expect(r.err.contains("needs a PostgreSQL index"))
        }
    }
}
