import Archive
import Foundation
@testable import Indexer
import Testing

/// `stats` through the archive's protocols (issue 14 §1): the same fields and text, and the
/// same reach — no S3 client (no credentials needed), PostgreSQL only for an S3 ledger kept there.
@Suite struct StatsCommandTests {
    static let fields = ["blobs", "bytes", "chunks", "stored-bytes", "chunk-refs", "dedup", "pending-puts", "chunk-size",
                         "map-size", "map-used", "blob-store", "blob-location", "index-store", "index-location"]

    /// Records `blobs` and `index` in the archive's archive.json as `init` would have.
    static func configure(_ archive: String, blobs: ArchiveConfiguration.Blobs, index: ArchiveConfiguration.Index?) throws {
        var config = try ArchiveConfiguration.load(archive: archive)
        config.blobs = blobs
        config.index = index
        if index != nil { config.format = ArchiveConfiguration.indexFormat }
        try config.save(archive: archive)
    }

    /// A bucket at an endpoint nothing listens on, and an index on a port nothing listens on.
    static let bucket = ArchiveConfiguration.Blobs(store: "s3", bucket: "exhibit-stats", prefix: "p", endpoint: "http://127.0.0.1:1", region: "eu-test-1")
    static let index = ArchiveConfiguration.Index(connection: "postgresql://exhibit@127.0.0.1:1/exhibit", schema: "stats")

    @Test func textAndJSONNameEveryFieldInOrder() {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        let file = s.file("a.bin", bytes: pseudoRandom(300_000, seed: 3))
        #expect(cli(["put", "--archive", s.archive, file]).code == .success)
        let text = cli(["stats", "--archive", s.archive])
        #expect(text.code == .success && text.err.isEmpty)
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix { $0 != " " }) } == Self.fields)
        #expect(lines.prefix(6) == ["blobs 1", "bytes 300000", "chunks 1", "stored-bytes 300000", "chunk-refs 1", "dedup 1"], "\(lines)")
        #expect(lines.suffix(4) == ["blob-store lmdb", "blob-location lmdb:\(s.archive)", "index-store lmdb", "index-location lmdb:\(s.archive)"], "\(lines)")
        let json = cli(["stats", "--archive", s.archive, "--json"])
        let object = try? JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect(object?["mapSize"] as? Int ?? 0 > 0 && object?["mapUsed"] as? Int ?? 0 > 0 && object?["pendingPuts"] as? Int == 0, "\(json.out)")
        let camel = Self.fields.map { $0.split(separator: "-").enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined() }
        let positions = camel.compactMap { json.out.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == camel.count && positions == positions.sorted(), "\(json.out)")
    }

    @Test func blobsInS3AreCountedByTheirLedgerWithoutAnS3Client() throws {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        try Self.configure(s.archive, blobs: Self.bucket, index: nil)
        // No AWS_* variable at all: a command that reads blobs cannot even make its client …
        let get = cli(["get", "--archive", s.archive, String(repeating: "0", count: 64)])
        #expect(get.code == .archiveUnusable && get.err.contains("s3.credentials.missing"), "\(get.err)")
        // … while stats makes none: the ledger (in the archive's environment) counts the blobs.
        let stats = cli(["stats", "--archive", s.archive])
        #expect(stats.code == .success && stats.err.isEmpty, "\(stats.err)")
        #expect(stats.out.hasPrefix("blobs 0\nbytes 0\n"))
        #expect(stats.out.contains("blob-store s3\nblob-location s3://exhibit-stats/p at http://127.0.0.1:1 (eu-test-1)\n"), "\(stats.out)")
    }

    @Test func withAnIndexStatsConnectsToPostgreSQLOnlyForTheS3Ledger() throws {
        let s = Scratch()
        #expect(cli(["init", "--archive", s.archive]).code == .success)
        // Blobs in the environment: the index is named, never connected to.
        try Self.configure(s.archive, blobs: .lmdb, index: Self.index)
        let named = cli(["stats", "--archive", s.archive])
        #expect(named.code == .success, "\(named.err)")
        #expect(named.out.hasSuffix("index-store postgresql\nindex-location \(Self.index.description)\n"), "\(named.out)")
        // Blobs in S3: their ledger is the index's; stats connects to PostgreSQL (unreachable
        // here: exit 3 with its error), never to S3 (no credentials asked for).
        try Self.configure(s.archive, blobs: Self.bucket, index: Self.index)
        let ledger = cli(["stats", "--archive", s.archive])
        #expect(ledger.code == .archiveUnusable && ledger.out.isEmpty)
        #expect(ledger.err.hasPrefix("Error: pg.") && !ledger.err.contains("s3."), "\(ledger.err)")
    }
}
