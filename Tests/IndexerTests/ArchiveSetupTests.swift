import CAS
import Foundation
@testable import Indexer
import LMDB
import Testing

/// What moved behind `ArchiveOpener` (issue 14 §1) keeps the command line's texts and exit
/// codes: the store options' usage errors, `init`'s refusals and checks, `query`'s
/// `cas.unsupportedFormat`.
@Suite struct ArchiveSetupTests {
    @Test func badStoreOptionsAreUsageErrors() {
        let s = Scratch()
        for (name, value, message) in [("EXHIBIT_LMDB_MAPSIZE", "4096", "EXHIBIT_LMDB_MAPSIZE must be a byte count ≥ 65536"),
                                       ("EXHIBIT_CAS_CHUNK_SIZE", "0", "EXHIBIT_CAS_CHUNK_SIZE must be 1…67108864"),
                                       ("EXHIBIT_CAS_BATCH_MB", "2048", "EXHIBIT_CAS_BATCH_MB must be 1…1024")] {
            for command in [["init"], ["stats"], ["query", "--count"]] {
                let r = cli(command + ["--archive", s.archive], env: [name: value])
                #expect(r.code == .usage, "\(name) \(command)")
                #expect(r.err.hasPrefix("Error: \(message)\nUSAGE: exhibit-archive <subcommand> [options]\n"), "\(r.err)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: s.archive), "nothing made")
    }

    @Test func initTakesTheChunkSizeFromTheEnvironment() {
        let s = Scratch()
        let r = cli(["init", "--archive", s.archive, "--json"], env: ["EXHIBIT_CAS_CHUNK_SIZE": "65536"])
        #expect(r.code == .success && r.out.contains(#""chunkSize":65536,"format":"exhibit-cas"#), "\(r.out)")
        #expect(cli(["stats", "--archive", s.archive]).out.contains("\nchunk-size 65536\n"))
    }

    @Test func initMovesNoBlobsAndChecksTheIndexBeforeConnecting() {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        #expect(cli(["put", "--archive", s.archive, s.file("a", bytes: [1, 2, 3])]).code == .success)
        let move = cli(["init", "--archive", s.archive, "--blobs", "s3://exhibit-b/p"])
        #expect(move.code == .usage)
        #expect(move.err.hasPrefix("Error: the archive at \(s.archive) keeps its blobs in its LMDB environment already; init does not move them\nUSAGE: exhibit-archive init"), "\(move.err)")
        // --index checked before any connection (port 1: nothing listens).
        let long = String(repeating: "s", count: 64)
        let schema = cli(["init", "--archive", s.archive, "--index", "postgresql://exhibit@127.0.0.1:1/x", "--index-schema", long])
        #expect(schema.code == .usage && schema.err.hasPrefix("Error: --index-schema: '\(long)' cannot name a PostgreSQL schema\n"), "\(schema.err)")
        let unparsable = cli(["init", "--archive", s.archive, "--index", "host=127.0.0.1 dbname='x"])
        #expect(unparsable.code == .usage && unparsable.err.hasPrefix("Error: --index: "), "\(unparsable.err)")
        // A well-formed index on an archive with no records: init connects (nothing listens: exit 3, pg.*).
        let unreachable = cli(["init", "--archive", s.archive, "--index", "postgresql://exhibit@127.0.0.1:1/x"])
        #expect(unreachable.code == .archiveUnusable && unreachable.err.hasPrefix("Error: pg."), "\(unreachable.err)")
    }

    @Test func anIndexOfAnotherFormatIsCASUnsupportedFormat() throws {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        #expect(cli(["query", "--count", "--archive", s.archive]).code == .success)
        do {
            let store = try ContentStore.open(at: s.archive)
            let meta = try store.environment.database("idx.meta")
            try store.environment.write { txn in _ = try txn.put(meta, Array("format".utf8), Array("exhibit-index/99".utf8)) }
        }
        let r = cli(["query", "--count", "--archive", s.archive])
        #expect(r.code == .archiveUnusable)
        #expect(r.err == "Error: cas.unsupportedFormat: unsupported archive format exhibit-index/99\n", "\(r.err)")
    }
}
