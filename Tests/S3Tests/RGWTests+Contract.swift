import Archive
import BlobStoreContract
import Foundation
import Ground
import Testing
@testable import S3

extension RGWTests {
    /// The blob-store contract (Tests/BlobStoreContract) on the S3 implementation against the
    /// real Ceph RGW, each case under a fresh prefix; damage is done by boto3, another client.
    @Suite struct Contract {
        static let sizes = BlobStoreContract.sizes(chunk: 256 * 4096 - 16, multipart: S3BlobStore.Options().multipartThreshold)

        static func subject() throws -> (BlobStoreSubject, S3BlobStore) {
            let server = try RGWServer.get()
            let store = try server.store()
            return (subject(store, server: server, bucket: server.bucket, key: { store.key(for: $0) }), store)
        }

        /// `store` as a contract subject whose blob `id` is the object `key(id)` of `bucket`,
        /// which boto3 overwrites or deletes behind its back.
        static func subject(_ store: any BlobStore, server: RGWServer, bucket: String,
                            key: @escaping @Sendable (ContentID) -> String) -> BlobStoreSubject {
            BlobStoreSubject(
                store: store,
                corrupt: { id, original in
                    var changed = original
                    changed[changed.count / 2] ^= 0x01
                    let dir = ScratchDirectory()
                    try Data(changed).write(to: URL(fileURLWithPath: dir.file("changed")))
                    let run = server.peer(["put", bucket, key(id), dir.file("changed")])
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

        @Test(arguments: sizes) func roundTrip(size: Int) throws {
            try BlobStoreContract.roundTrip(try Self.subject().0, size: size, seed: UInt64(size) &+ 3)
        }

        @Test func roundTripOf100MiB() throws {
            try BlobStoreContract.roundTrip(try Self.subject().0, size: 100 << 20, seed: 9)
        }

        @Test(arguments: [1, S3BlobStore.Options().multipartThreshold + 1]) func badSourcesLeaveNoBlob(size: Int) throws {
            let (subject, store) = try Self.subject()
            try BlobStoreContract.badSourcesLeaveNoBlob(subject, size: size)
            #expect(try store.pendingUploads().isEmpty)
        }

        @Test(arguments: [5000, S3BlobStore.Options().multipartThreshold + 5000]) func damageIsNamed(size: Int) throws {
            try BlobStoreContract.damageIsNamed(try Self.subject().0, size: size)
        }

        /// One 256 MiB put (multipart) and get in a process of its own stay within the store's
        /// part buffers (BlobStoreContract.streamingMemory).
        @Test func streamingMemoryIsBounded() throws {
            let server = try RGWServer.get()
            try BlobStoreContract.streamingMemory(kind: "s3", location: { "tests/\(UUID().uuidString.lowercased())" },
                                                  environment: server.environment)
        }

        /// The same with the whole 256 MiB in one PUT streamed from the file (the threshold at
        /// 5 GiB): the put's growth is bounded by the MD5 pass's 1 MiB piece plus the slack.
        @Test func streamedSinglePutMemoryIsBounded() throws {
            let server = try RGWServer.get()
            try BlobStoreContract.streamingMemory(kind: "s3", location: { "tests/\(UUID().uuidString.lowercased())" },
                                                  environment: server.environment, probeFlags: ["--single"])
        }

        @Test func locationNamesBucketPrefixAndEndpoint() throws {
            let (subject, store) = try Self.subject()
            let environment = try RGWServer.get().environment
            guard case .s3(let bucket, let prefix, let endpoint, _) = subject.store.location else {
                Issue.record("not an S3 location: \(subject.store.location)")
                return
            }
            #expect(bucket == store.bucket && prefix == store.prefix)
            #expect(endpoint == environment["AWS_ENDPOINT_URL_S3"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
            #expect(subject.store.location.uri == "s3://\(store.bucket)/\(store.prefix)")
            #expect(!subject.store.location.description.contains(environment["AWS_SECRET_ACCESS_KEY"] ?? "\u{0}"))
        }
    }
}
