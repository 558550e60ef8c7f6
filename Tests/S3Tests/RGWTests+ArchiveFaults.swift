import Foundation
import ProcessSupport
import Testing

extension RGWTests {
    /// What another client does to the bucket, wrong credentials, Object Lock and gc.
    @Suite struct ArchiveFaults {
        /// An ingested S3-backed archive, its prefix and its records' stored files.
        static func ingested(_ s: S3Archive) throws -> (archive: String, prefix: String, dump: String) {
            let dump = try s.dump(stills: 2, videos: 0)
            let archive = s.root + "/s3", prefix = S3Archive.prefix()
            #expect(s.initS3(archive, prefix: prefix).code == .success)
            #expect(s.cli(["ingest", "--archive", archive] + S3Archive.trust(dump) + [dump]).code == .failure)
            #expect(s.cli(["audit", "--archive", archive]).code == .success)
            return (archive, prefix, dump)
        }

        /// The record and its first stored blob, of the first record `query` lists.
        static func recordAndBlob(_ s: S3Archive, _ archive: String, index: Int) throws -> (record: String, blob: String) {
            let lines = s.cli(["query", "--archive", archive, "--json", "--state", "intact"]).out.split(separator: "\n")
            let record = try #require(((try JSONSerialization.jsonObject(with: Data(lines[index].utf8))) as? [String: Any])?["recordId"] as? String)
            let blob = try #require(try ArchiveEndToEnd.firstBlob(s.cli(["show", "--archive", archive, "--json", record]).out))
            return (record, blob)
        }

        @Test func overwrittenAndDeletedObjectsAreNamedAndRefused() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let (archive, prefix, _) = try Self.ingested(s)
            let (record1, changed) = try Self.recordAndBlob(s, archive, index: 0)
            let (record2, gone) = try Self.recordAndBlob(s, archive, index: 1)
            #expect(changed != gone)
            // boto3 overwrites one object with other bytes and deletes another.
            let junk = s.root + "/junk"
            try Data("not the blob".utf8).write(to: URL(fileURLWithPath: junk))
            #expect(s.peer(["put", s.bucket, S3Archive.key(changed, prefix: prefix), junk]).status == 0)
            #expect(s.peer(["delete", s.bucket, S3Archive.key(gone, prefix: prefix)]).status == 0)

            let audit = s.cli(["audit", "--archive", archive])
            #expect(audit.code == .failure)
            #expect(audit.out.contains("damaged \(changed) problem s3.integrity.mismatch"), "\(audit.out)")
            #expect(audit.out.contains("damaged \(gone) problem s3.notFound"), "\(audit.out)")
            #expect(audit.out.contains(", 2 damaged"))
            // A sample that holds them names them too (the whole archive is a sample of 1).
            let sampled = s.cli(["audit", "--archive", archive, "--sample", "1", "--json"])
            #expect(sampled.out.contains("\"blob\":\"\(changed)\"") && sampled.out.contains("\"blob\":\"\(gone)\""))

            let got = s.cli(["get", "--archive", archive, changed, "-o", s.root + "/out"])
            #expect(got.code == .failure)
            #expect(got.err.contains("s3.integrity.mismatch"))
            #expect(!FileManager.default.fileExists(atPath: s.root + "/out"))
            let missing = s.cli(["get", "--archive", archive, gone])
            #expect(missing.code == .failure)
            #expect(missing.err.contains("s3.notFound"))

            for (record, blob, code) in [(record1, changed, "s3.integrity.mismatch"), (record2, gone, "s3.notFound")] {
                let bag = s.root + "/bag-" + blob.prefix(8)
                let export = s.cli(["export", "--archive", archive, "--out", bag, record])
                #expect(export.code == .failure, "\(export.out)")
                #expect(export.err.contains(blob) && export.err.contains(code), "\(export.err)")
                #expect(!FileManager.default.fileExists(atPath: bag + "/bagit.txt"))
            }
            _ = s.peer(["purge", s.bucket, prefix])
        }

        @Test func anEndpointCarryingCredentialsIsRefusedAndNotRecorded() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let archive = s.root + "/userinfo"
            let r = s.cli(["init", "--archive", archive, "--blobs", "s3://\(s.bucket)/x",
                           "--s3-endpoint", "http://someone:sekrit-passw0rd@127.0.0.1:1"])
            #expect(r.code == .usage, "\(r.code) \(r.err)")
            #expect(r.err.contains("--s3-endpoint must not carry credentials"))
            #expect(!r.err.contains("sekrit-passw0rd") && !r.out.contains("sekrit-passw0rd"))
            #expect(!FileManager.default.fileExists(atPath: archive + "/archive.json"))
        }

        @Test func wrongCredentialsAreAClearErrorAndNeverShown() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let (archive, prefix, dump) = try Self.ingested(s)
            let secret = try #require(s.environment["AWS_SECRET_ACCESS_KEY"])
            let keyID = try #require(s.environment["AWS_ACCESS_KEY_ID"])
            let wrongSecret = "wrong" + String(secret.dropFirst(5)) + "x"
            let blob = try Self.recordAndBlob(s, archive, index: 0).blob
            var outputs: [String] = []
            for args in [["ingest", "--archive", archive, dump], ["get", "--archive", archive, blob], ["audit", "--archive", archive],
                         ["stat", "--archive", archive, blob], ["gc", "--archive", archive], ["put", "--archive", archive, dump + "/expected.json"],
                         ["export", "--archive", archive, "--query", "--out", s.root + "/bag"]] {
                let r = s.cli(args, env: ["AWS_SECRET_ACCESS_KEY": wrongSecret])
                #expect(r.code == .archiveUnusable, "\(args[0]): \(r.code) \(r.err)")
                #expect(r.err.contains("s3.credentials.rejected"), "\(args[0]): \(r.err)")
                outputs += [r.out, r.err]
            }
            let none = s.cli(["get", "--archive", archive, blob], env: ["AWS_ACCESS_KEY_ID": ""])
            #expect(none.code == .archiveUnusable)
            #expect(none.err.contains("s3.credentials.missing"))
            // Good runs print nothing secret either.
            for args in [["stats", "--archive", archive], ["show", "--archive", archive, blob], ["audit", "--archive", archive],
                         ["stat", "--archive", archive, blob], ["init", "--archive", archive]] {
                let r = s.cli(args)
                outputs += [r.out, r.err]
            }
            for text in outputs { #expect(!text.contains(secret) && !text.contains(wrongSecret) && !text.contains(keyID)) }
            // Nothing in the archive directory holds a credential.
            let grep = Run.capture(["grep", "-rlaF", "-e", secret, "-e", keyID, "-e", wrongSecret, archive])
            #expect(grep.status == 1, "found in \(grep.stdout)")
            _ = s.peer(["purge", s.bucket, prefix])
        }

        @Test func objectLockIsComplianceOrAClearRefusal() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let lockBucket = s.environment["EXHIBIT_S3_LOCK_BUCKET"] ?? "exhibit-test-lock"
            let prefix = S3Archive.prefix()
            let plain = s.initS3(s.root + "/plain", prefix: prefix, extra: ["--object-lock-days", "1"])
            #expect(plain.code == .archiveUnusable)
            #expect(plain.err.contains("s3.objectLock.unsupported"), "\(plain.err)")
            #expect(!FileManager.default.fileExists(atPath: s.root + "/plain/archive.json"))

            let archive = s.root + "/locked"
            let made = s.cli(["init", "--archive", archive, "--blobs", "s3://\(lockBucket)/\(prefix)", "--object-lock-days", "1"])
            #expect(made.code == .success, "\(made.err)")
            #expect(made.out.contains("Object Lock COMPLIANCE, 1 days"))
            let file = s.root + "/one"
            try Data("locked blob \(prefix)".utf8).write(to: URL(fileURLWithPath: file))
            let put = s.cli(["put", "--archive", archive, file])
            #expect(put.code == .success, "\(put.err)")
            let id = String(put.out.prefix(64))
            let stat = s.cli(["stat", "--archive", archive, id])
            #expect(stat.out.contains("lock-mode COMPLIANCE"), "\(stat.out)")
            #expect(stat.out.contains("retain-until "))
            // Another client cannot delete it (exit 3 from the peer: refused).
            #expect(s.peer(["delete", lockBucket, S3Archive.key(id, prefix: prefix)]).status == 3)
            #expect(s.cli(["audit", "--archive", archive]).code == .success)
        }

        @Test func gcRemovesObjectsNoLedgerListsAndStaleUploads() throws {
            let s = try S3Archive()
            defer { s.cleanUp() }
            let archive = s.root + "/s3", prefix = S3Archive.prefix()
            #expect(s.initS3(archive, prefix: prefix).code == .success)
            let kept = s.root + "/kept", orphan = s.root + "/orphan"
            try Data("a blob the archive holds".utf8).write(to: URL(fileURLWithPath: kept))
            try Data("an object a killed ingest left".utf8).write(to: URL(fileURLWithPath: orphan))
            let put = s.cli(["put", "--archive", archive, kept])
            let keptID = String(put.out.prefix(64))
            let orphanID = Run.capture(["sha256sum", orphan]).stdout.prefix(64)
            // What an ingest killed between its uploads and its commit leaves: an object in the
            // layout that the ledger does not list. Invisible to get, removed by gc.
            #expect(s.peer(["put", s.bucket, S3Archive.key(String(orphanID), prefix: prefix), orphan]).status == 0)
            #expect(s.cli(["get", "--archive", archive, String(orphanID)]).code == .failure)
            let gc = s.cli(["gc", "--archive", archive, "--json"])
            #expect(gc.code == .success, "\(gc.err)")
            #expect(gc.out.contains("\"s3ObjectsRemoved\":1"), "\(gc.out)")
            #expect(s.peer(["exists", s.bucket, S3Archive.key(String(orphanID), prefix: prefix)]).output == "no")
            #expect(s.peer(["exists", s.bucket, S3Archive.key(keptID, prefix: prefix)]).output == "yes")
            #expect(s.cli(["audit", "--archive", archive]).code == .success)
            _ = s.peer(["purge", s.bucket, prefix])
        }
    }
}
