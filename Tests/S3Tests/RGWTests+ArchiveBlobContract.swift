import Archive
import ArchiveOpen
import BlobStoreContract
import CAS
import Foundation
import Ground
import Testing
@testable import S3

extension RGWTests {
    /// The blob-store contract (Tests/BlobStoreContract) on the blob store an S3-backed archive
    /// really uses — `S3ArchiveBlobStore`, the bucket's objects with the archive's ledger — as
    /// the one factory (`ArchiveOpener`) opens it from `archive.json`: each case in a fresh
    /// archive directory under a fresh key prefix; damage is done by boto3, another client.
    @Suite struct ArchiveBlobContract {
        final class Subject {
            let dir = ScratchDirectory("archive-blob-contract")
            let prefix = "tests/\(UUID().uuidString.lowercased())"
            let subject: BlobStoreSubject

            init() throws {
                let server = try RGWServer.get()
                let path = dir.file("archive")
                _ = try ContentStore.create(at: path)
                try ArchiveConfiguration(blobs: .init(store: "s3", bucket: server.bucket, prefix: prefix)).save(archive: path)
                let store = try ArchiveOpener(path: path, environment: server.environment).open().blobs
                let (bucket, prefix) = (server.bucket, prefix)
                let key: @Sendable (ContentID) -> String = { id in "\(prefix)/blobs/\(id.hex.prefix(2))/\(id.hex)" }
                subject = BlobStoreSubject(
                    store: store,
                    corrupt: { id, original in
                        var changed = original
                        changed[changed.count / 2] ^= 0x01
                        let scratch = ScratchDirectory()
                        try Data(changed).write(to: URL(fileURLWithPath: scratch.file("changed")))
                        let run = server.peer(["put", bucket, key(id), scratch.file("changed")])
                        guard run.status == 0 else { throw S3Error(.rejected, "boto3 put: \(run.stderr)") }
                    },
                    vanish: { id in
                        let run = server.peer(["delete", bucket, key(id)])
                        guard run.status == 0 else { throw S3Error(.rejected, "boto3 delete: \(run.stderr)") }
                    },
                    notFound: [StatusCode.s3NotFound],
                    putMismatch: [StatusCode.s3IntegrityRejected, StatusCode.s3IntegrityMismatch],
                    damaged: [StatusCode.s3IntegrityMismatch],
                    rangeRefused: [StatusCode.s3RangeInvalid])
            }
        }

        /// The ledger's part of the contract; the object sizes around the multipart threshold
        /// are `RGWTests.Contract`'s (the same `S3BlobStore` underneath).
        @Test(arguments: [0, 1, (5 << 20) + 3]) func roundTrip(size: Int) throws {
            let s = try Subject()
            try BlobStoreContract.roundTrip(s.subject, size: size, seed: UInt64(size) &+ 5)
        }

        @Test func badSourcesLeaveNoBlob() throws {
            let s = try Subject()
            try BlobStoreContract.badSourcesLeaveNoBlob(s.subject, size: 1)
        }

        @Test func damageIsNamed() throws {
            let s = try Subject()
            try BlobStoreContract.damageIsNamed(s.subject, size: 5000)
        }
    }
}
