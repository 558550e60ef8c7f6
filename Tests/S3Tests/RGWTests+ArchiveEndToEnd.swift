import Foundation
import ProcessSupport
import Testing

extension RGWTests {
    /// One faulted dump ingested into an LMDB archive and an S3-backed one: every command
    /// gives the same answers (only where the blobs live differs).
    @Suite struct ArchiveEndToEnd {
        @Test func sameAnswersAsLMDB() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let dump = try s.dump()
            let lmdb = s.root + "/lmdb", remote = s.root + "/s3"
            let prefix = S3Archive.prefix()
            #expect(s.cli(["init", "--archive", lmdb]).code == .success)
            let made = s.initS3(remote, prefix: prefix)
            #expect(made.code == .success, "\(made.err)")
            #expect(made.out.contains("blobs s3://\(s.bucket)/\(prefix) at "))

            let a = s.cli(["ingest", "--archive", lmdb, "--json"] + S3Archive.trust(dump) + [dump])
            let b = s.cli(["ingest", "--archive", remote, "--json"] + S3Archive.trust(dump) + [dump])
            #expect(a.code == b.code)
            #expect(a.code == .failure)  // the faults need attention
            #expect(S3Archive.normalized(a.out) == S3Archive.normalized(b.out))

            // Every object is where restic's layout puts it, and the ledger counts them.
            let stats = s.cli(["stats", "--archive", remote, "--json"])
            let lstats = s.cli(["stats", "--archive", lmdb, "--json"])
            let so = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any])
            let lo = try #require(try JSONSerialization.jsonObject(with: Data(lstats.out.utf8)) as? [String: Any])
            #expect(so["blobStore"] as? String == "s3")
            #expect(lo["blobStore"] as? String == "lmdb")
            #expect((so["blobLocation"] as? String)?.hasPrefix("s3://\(s.bucket)/\(prefix) at ") == true)
            #expect(so["blobs"] as? Int == lo["blobs"] as? Int)
            #expect(so["bytes"] as? Int == lo["bytes"] as? Int)

            // query, show
            let qa = s.cli(["query", "--archive", lmdb, "--json"]), qb = s.cli(["query", "--archive", remote, "--json"])
            #expect(qa.code == .success && qb.code == .success)
            #expect(S3Archive.normalized(qa.out) == S3Archive.normalized(qb.out))
            let ids = qa.out.split(separator: "\n").compactMap { line in
                ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["recordId"] as? String
            }
            #expect(ids.count >= S3Archive.faults.count)
            for id in ids {
                let sa = s.cli(["show", "--archive", lmdb, "--json", id]), sb = s.cli(["show", "--archive", remote, "--json", id])
                #expect(S3Archive.normalized(sa.out) == S3Archive.normalized(sb.out), "show \(id)")
                #expect(sb.out.contains("\"blobLocation\":\"s3://\(s.bucket)/\(prefix) at "))
            }
            #expect(s.cli(["show", "--archive", remote, ids[0]]).out.contains("blobs in:            s3://\(s.bucket)/\(prefix)"))

            // audit (full and sampled) clean on both, the same counts.
            let aa = s.cli(["audit", "--archive", lmdb, "--json"]), ab = s.cli(["audit", "--archive", remote, "--json"])
            #expect(aa.code == .success && ab.code == .success, "\(ab.out)\(ab.err)")
            #expect(S3Archive.normalized(aa.out) == S3Archive.normalized(ab.out))
            #expect(s.cli(["audit", "--archive", remote, "--sample", "0.2"]).code == .success)

            // export and verify-export: the same payload, byte for byte.
            let ea = s.cli(["export", "--archive", lmdb, "--query", "--out", s.root + "/bag-lmdb"])
            let eb = s.cli(["export", "--archive", remote, "--query", "--out", s.root + "/bag-s3"])
            #expect(ea.code == .success && eb.code == .success, "\(eb.err)")
            #expect(try S3Archive.tree(s.root + "/bag-lmdb/data") == S3Archive.tree(s.root + "/bag-s3/data"))
            #expect(s.cli(["verify-export", s.root + "/bag-s3"]).code == .success)

            // get and stat of one blob: the same bytes; stat names the object.
            let blob = try #require(try Self.firstBlob(s.cli(["show", "--archive", remote, "--json", ids[0]]).out))
            #expect(s.cli(["get", "--archive", remote, blob, "-o", s.root + "/got"]).code == .success)
            #expect(s.cli(["get", "--archive", lmdb, blob, "-o", s.root + "/got-lmdb"]).code == .success)
            #expect(FileManager.default.contentsEqual(atPath: s.root + "/got", andPath: s.root + "/got-lmdb"))
            let stat = s.cli(["stat", "--archive", remote, blob])
            #expect(stat.out.contains("key \(S3Archive.key(blob, prefix: prefix))"))

            // reverify reads the blobs back from the bucket: nothing changed.
            let anchors = ["--anchors", dump + "/trust/signer-root.pem", "--tsa-anchors", dump + "/trust/tsa-root.pem"]
            let ra = s.cli(["reverify", "--archive", lmdb] + anchors), rb = s.cli(["reverify", "--archive", remote] + anchors)
            #expect(ra.code == rb.code, "\(rb.err)")
            #expect(ra.out.split(separator: "\n").last == rb.out.split(separator: "\n").last)

            // Re-ingest: everything present, nothing new.
            let again = s.cli(["ingest", "--archive", remote] + S3Archive.trust(dump) + [dump])
            #expect(again.out.contains("0 new blobs"))
            _ = s.peer(["purge", s.bucket, prefix])
        }

        /// A video over the 4 MiB inline limit is streamed: the verifier reads it back from the
        /// uploaded object (ranged GETs, `BlobStaging.source(of:)`), never from the dump again,
        /// and finds what the LMDB archive finds reading its staged chunks.
        @Test func streamedFileIsVerifiedFromTheBucket() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let dump = try s.dump(stills: 1, videos: 1, seconds: 6, name: "streamed")
            let sizes = try FileManager.default.subpathsOfDirectory(atPath: dump).compactMap { rel -> Int? in
                (try? FileManager.default.attributesOfItem(atPath: dump + "/" + rel))?[.size] as? Int
            }
            #expect((sizes.max() ?? 0) > 4 << 20, "the video must be over the inline limit to be streamed")
            let lmdb = s.root + "/lmdb", remote = s.root + "/s3"
            let prefix = S3Archive.prefix()
            #expect(s.cli(["init", "--archive", lmdb]).code == .success)
            #expect(s.initS3(remote, prefix: prefix).code == .success)
            let a = s.cli(["ingest", "--archive", lmdb, "--json"] + S3Archive.trust(dump) + [dump])
            let b = s.cli(["ingest", "--archive", remote, "--json"] + S3Archive.trust(dump) + [dump])
            #expect(a.code == b.code, "\(b.err)")
            #expect(S3Archive.normalized(a.out) == S3Archive.normalized(b.out))
            let qa = s.cli(["query", "--archive", lmdb, "--json"]), qb = s.cli(["query", "--archive", remote, "--json"])
            #expect(qa.code == .success && qb.code == .success)
            #expect(S3Archive.normalized(qa.out) == S3Archive.normalized(qb.out))
            #expect(qb.out.contains("\"kind\":\"video\""), "the video was recorded")
            _ = s.peer(["purge", s.bucket, prefix])
        }

        /// The first stored file's blob ID of a `show --json` line (else its first variant's).
        static func firstBlob(_ json: String) throws -> String? {
            let top = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let record = top?["record"] as? [String: Any]
            let files = (record?["files"] as? [[String: Any]]) ?? [], variants = (record?["variants"] as? [[String: Any]]) ?? []
            return (files.first ?? variants.first)?["blobId"] as? String
        }
    }
}
