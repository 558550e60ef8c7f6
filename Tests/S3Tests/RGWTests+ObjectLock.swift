import Foundation
import Ground
import Testing
@testable import S3

extension RGWTests {
    /// Object Lock (WORM) on the bucket ceph-up.sh made with it.
    @Suite struct ObjectLock {
        @Test func bucketsSayWhetherTheyHaveIt() throws {
            let server = try RGWServer.get()
            let client = try server.client()
            #expect(try client.objectLockEnabled(bucket: server.lockBucket))
            #expect(try !client.objectLockEnabled(bucket: server.bucket))
            do {
                _ = try server.store(.init(objectLock: S3ObjectLockRetention(days: 1)))
                Issue.record("Object Lock accepted on a bucket without it")
            } catch let e as S3Error {
                #expect(e.code == .objectLockUnsupported)
            }
        }

        @Test(arguments: [1000, (9 << 20) + 1])
        func compliancePutRefusesDelete(size: Int) throws {
            let server = try RGWServer.get()
            // A short retention: the test objects become deletable by the bucket's owner later.
            let store = try server.store(.init(multipartThreshold: RGWServer.multipart.multipartThreshold,
                                               objectLock: S3ObjectLockRetention(seconds: 120)), bucket: server.lockBucket)
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 ^ 0x5a) } + Array(UUID().uuidString.utf8)
            let id = ContentID(of: bytes)
            let before = Date()
            #expect(try store.put(id, bytes: bytes) == .new)
            let info = try #require(try store.stat(id))
            #expect(info.lockMode == "COMPLIANCE")
            let until = try #require(info.retainUntil)
            #expect(until > before.addingTimeInterval(100) && until < before.addingTimeInterval(200))
            #expect(info.versionID != nil)
            do {
                try store.delete(id)
                Issue.record("a delete under COMPLIANCE retention succeeded")
            } catch let e as S3Error {
                #expect(e.code == .accessDenied)
            }
            #expect(try store.has(id))
            // boto3 cannot delete it either.
            #expect(server.peer(["delete", server.lockBucket, store.key(for: id)]).status == 3)
            var got: [UInt8] = []
            try store.get(id) { got += $0 }
            #expect(got == bytes)
        }
    }
}
