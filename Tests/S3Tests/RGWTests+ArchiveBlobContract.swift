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
                let keyPrefix = prefix
                subject = Contract.subject(store, server: server, bucket: server.bucket,
                                           key: { "\(keyPrefix)/blobs/\($0.hex.prefix(2))/\($0.hex)" })
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
