import ArchiveS3
import Foundation
import Ground
import Postgres
import PostgresTestSupport
import ProcessSupport
import S3
import Testing

extension RGWTests {
    /// Two archive directories (two machines) with their blobs under one bucket prefix and one
    /// PostgreSQL index (issue 15): the blob ledger and the staging marks are the index's, so
    /// neither machine's `gc` deletes what the other uploaded, and each sees every blob
    /// (`audit`, `get`, `stat`, `stats`).
    @Suite struct SharedLedger {
        @Test func twoMachinesShareOneLedger() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let schema = try TestSchema()
            let pg = schema.server.environment
            let prefix = S3Archive.prefix()
            defer { _ = s.peer(["purge", s.bucket, prefix]) }
            let a = s.root + "/machine-a", b = s.root + "/machine-b"
            for dir in [a, b] {
                let made = s.cli(["init", "--archive", dir, "--blobs", "s3://\(s.bucket)/\(prefix)", "--index", schema.server.url,
                                  "--index-schema", schema.name], env: pg)
                #expect(made.code == .success, "\(made.out)\(made.err)")
            }
            let dumpA = try s.dump(stills: 2, videos: 1, seconds: 1, name: "dump-a", seed: 7)
            let dumpB = try s.dump(stills: 2, videos: 1, seconds: 1, name: "dump-b", seed: 8)
            let ledger = try schema.connect()
            let ia = s.cli(["ingest", "--archive", a] + S3Archive.trust(dumpA) + [dumpA], env: pg)
            let uploadedByA = try Self.ledgered(ledger)
            let recordsOfA = try Self.records(ledger)
            let ib = s.cli(["ingest", "--archive", b] + S3Archive.trust(dumpB) + [dumpB], env: pg)
            #expect(ia.code == .failure && ib.code == .failure, "the faults need attention: \(ia.err)\(ib.err)")
            let uploadedByB = try Self.ledgered(ledger).subtracting(uploadedByA)
            #expect(!uploadedByA.isEmpty && !uploadedByB.isEmpty)
            let listed = try ledger.execute("SELECT count(*) FROM blob_ledger").single()?.decode(0, as: Int64.self) ?? 0
            #expect(listed > 0)
            // Nothing of the bucket's prefix lives outside the shared ledger, and each machine's
            // LMDB environment holds no ledger entries of its own.
            for dir in [a, b] {
                let stats = try Self.object(s.cli(["stats", "--archive", dir, "--json"], env: pg).out)
                #expect(stats["blobs"] as? Int == Int(listed), "stats of \(dir) counts the shared ledger")
            }

            // gc on A removes nothing (B's objects are in the shared ledger).
            let gc = try Self.object(s.cli(["gc", "--archive", a, "--json"], env: pg).out)
            #expect(gc["s3ObjectsRemoved"] as? Int == 0)
            #expect(gc["s3SkippedBusy"] as? Bool == false)

            // audit clean on both; get of a blob the other uploaded; query sees every record.
            for dir in [a, b] {
                let audit = s.cli(["audit", "--archive", dir, "--json"], env: pg)
                #expect(audit.code == .success, "audit \(dir): \(audit.out)\(audit.err)")
            }
            // Both machines' records are in the one index, and `query` on either machine sees them all.
            let recordsOfBoth = try Self.records(ledger)
            #expect(recordsOfA > 0 && recordsOfBoth > recordsOfA, "B's records join A's: \(recordsOfA) then \(recordsOfBoth)")
            for dir in [a, b] {
                #expect(s.cli(["query", "--archive", dir, "--count"], env: pg).out.hasPrefix("matches \(recordsOfBoth)\n"), "query on \(dir)")
            }
            for blob in [try #require(uploadedByA.min()), try #require(uploadedByB.min())] {
                for dir in [a, b] {
                    let out = s.root + "/got-\(UUID().uuidString)"
                    let got = s.cli(["get", "--archive", dir, blob, "-o", out], env: pg)
                    #expect(got.code == .success, "get \(blob) from \(dir): \(got.err)")
                    #expect(ContentID.sha256(of: Array(try Data(contentsOf: URL(fileURLWithPath: out)))).hex == blob)
                    #expect(s.cli(["stat", "--archive", dir, blob], env: pg).out.contains("key \(S3Archive.key(blob, prefix: prefix))"))
                }
            }

            // A crash between upload and ledger: an object no ledger lists, kept while its
            // machine's staging mark lives, removed by gc once the mark has expired.
            let server = try RGWServer.get()
            let objects = try S3BlobStore(client: server.client(), bucket: s.bucket, prefix: prefix)
            let orphan: [UInt8] = Array("uploaded, never ledgered \(UUID())".utf8)
            let orphanID = ContentID.sha256(of: orphan)
            _ = try objects.put(orphanID, bytes: orphan)
            try ledger.execute("INSERT INTO blob_pending (holder, expires) VALUES ('crashed-host:1:00', now() + interval '1 hour')")
            let busy = try Self.object(s.cli(["gc", "--archive", b, "--json"], env: pg).out)
            #expect(busy["s3SkippedBusy"] as? Bool == true)
            #expect(try objects.size(of: orphanID) == Int64(orphan.count), "kept while the mark lives")
            try ledger.execute("UPDATE blob_pending SET expires = now() - interval '1 second' WHERE holder = 'crashed-host:1:00'")
            let swept = try Self.object(s.cli(["gc", "--archive", b, "--json"], env: pg).out)
            #expect(swept["s3SkippedBusy"] as? Bool == false)
            #expect(swept["s3ObjectsRemoved"] as? Int == 1)
            #expect(swept["s3PendingCleared"] as? Int == 1, "the expired mark is cleared and said so")
            #expect(busy["s3PendingCleared"] as? Int == 0, "a live mark is kept")
            #expect(try objects.size(of: orphanID) == nil, "removed once the mark expired")
            #expect(try ledger.execute("SELECT count(*) FROM blob_pending").single()?.decode(0, as: Int64.self) == 0)
            for dir in [a, b] { #expect(s.cli(["audit", "--archive", dir], env: pg).code == .success) }
        }

        static func object(_ json: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        }

        /// Records in the index.
        static func records(_ c: Connection) throws -> Int64 {
            try c.execute("SELECT count(*) FROM records").single()?.decode(0, as: Int64.self) ?? 0
        }

        /// The hex IDs `blob_ledger` lists.
        static func ledgered(_ c: Connection) throws -> Set<String> {
            Set(try c.execute("SELECT encode(blob_id, 'hex') FROM blob_ledger").map { try $0.decode(0, as: String.self) })
        }
    }
}
