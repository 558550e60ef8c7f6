import Foundation
import Ground
import Testing
@testable import S3

extension RGWTests {
    /// What the server refuses, and what another client changed behind our back.
    @Suite struct Integrity {
        func code(_ body: () throws -> Void) -> S3Error.Code? {
            do { try body(); return nil } catch { return (error as? S3Error)?.code }
        }

        @Test func wrongContentSHA256IsRefusedAndLeavesNothing() throws {
            let server = try RGWServer.get()
            let store = try server.store()
            let bytes = Array(repeating: UInt8(7), count: 1000)
            let wrong = ContentID(of: Array("other bytes".utf8))
            do {
                _ = try store.put(wrong, bytes: bytes)
                Issue.record("the server took a body that does not hash to x-amz-content-sha256")
            } catch let e as S3Error {
                #expect(e.code == .integrityRejected)
                #expect(e.serverCode == "XAmzContentSHA256Mismatch")
            }
            #expect(try !store.has(wrong))
            #expect(server.peer(["exists", server.bucket, store.key(for: wrong)]).stdout == "no\n")
        }

        @Test func multipartSourceNotMatchingItsIDIsAbortedAndLeavesNothing() throws {
            let server = try RGWServer.get()
            let store = try server.store(RGWServer.multipart)
            let bytes = [UInt8](repeating: 3, count: (9 << 20) + 5)
            let wrong = ContentID(of: Array("not these bytes".utf8))
            #expect(code { _ = try store.put(wrong, bytes: bytes) } == .integrityMismatch)
            #expect(try !store.has(wrong))
            #expect(try store.pendingUploads().isEmpty)
        }

        @Test(arguments: [false, true]) func sourceShorterOrLongerThanDeclaredIsInput(multipart: Bool) throws {
            let server = try RGWServer.get()
            let store = try server.store(multipart ? RGWServer.multipart : .init())
            for (size, declared) in [(100, 101), (100, 99), ((9 << 20), (9 << 20) + 1), ((9 << 20) + 1, 9 << 20)] {
                let bytes = [UInt8](repeating: 9, count: size)
                let id = ContentID(of: bytes)
                var source = ByteReader(MemoryByteSource(bytes))
                #expect(code { _ = try store.put(id, size: Int64(declared), from: &source) } == .input, "\(size) as \(declared)")
                #expect(try !store.has(id))
            }
            #expect(try store.pendingUploads().isEmpty)
        }

        @Test func rangedGetReturnsTheBytesAsked() throws {
            let server = try RGWServer.get()
            let store = try server.store(RGWServer.multipart)
            let size = (9 << 20) + 123
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
            let id = ContentID(of: bytes)
            _ = try store.put(id, bytes: bytes)
            let s = Int64(size)
            let ranges: [Range<Int64>] = [0..<1, 5..<1000, (8 << 20) - 3..<(8 << 20) + 5, s - 10..<s, 0..<s, 17..<17]
            for range in ranges {
                var got: [UInt8] = []
                let total = try store.get(id, range: range) { got += $0 }
                #expect(total == s)
                #expect(got == Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)]), "\(range)")
            }
            // Past the end: refused, no bytes.
            var got: [UInt8] = []
            #expect(code { try store.get(id, range: s..<(s + 5)) { got += $0 } } != nil)
            #expect(got.isEmpty)
            try store.delete(id)
        }

        @Test func overwrittenByAnotherClientIsRefusedByGet() throws {
            let server = try RGWServer.get()
            let store = try server.store()
            let dir = TempDir()
            for size in [4096, (9 << 20) + 7] {
                let bytes = [UInt8](repeating: 0x41, count: size)
                let id = ContentID(of: bytes)
                _ = try store.put(id, bytes: bytes)
                // boto3 replaces the object with other bytes of the same length.
                let other = dir.file("other-\(size)")
                _ = FileManager.default.createFile(atPath: other, contents: Data(repeating: 0x42, count: size))
                #expect(server.peer(["put", server.bucket, store.key(for: id), other]).status == 0)
                var delivered = 0
                #expect(code { try store.get(id) { delivered += $0.count } } == .integrityMismatch)
                #expect(delivered < size, "the whole of a wrong blob reached the sink")
                try store.delete(id)
            }
        }

        @Test func deletedByAnotherClientIsSeen() throws {
            let server = try RGWServer.get()
            let store = try server.store()
            let bytes = Array("soon gone".utf8)
            let id = ContentID(of: bytes)
            _ = try store.put(id, bytes: bytes)
            #expect(try store.has(id))
            #expect(server.peer(["delete", server.bucket, store.key(for: id)]).status == 0)
            #expect(try !store.has(id))
            #expect(code { try store.get(id) { _ in } } == .notFound)
            #expect(try !store.delete(id))
            // And put-if-absent stores it again.
            #expect(try store.put(id, bytes: bytes) == .new)
            try store.delete(id)
        }
    }
}
