import CAS
import Crypto
import Foundation
import Ground
import LMDB
import TestLiterals
import Testing

@Suite struct RoundTripTests {
    static let chunk = ContentStore.defaultChunkSize

    @Test(arguments: [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 7])
    func roundTrip(size: Int) throws {
        let dir = TempDir()
        let store = try ContentStore.create(at: dir.path + "/archive")
        let bytes = patternBytes(size, seed: UInt64(size) + 1)
        var source = ByteReader(MemoryByteSource(bytes))
        let put = try store.put(from: &source)
        #expect(put.isNew)
        #expect(put.size == UInt64(size))
        #expect(put.id == ContentID(of: bytes))
        #expect(try store.bytes(of: put.id) == bytes)
        let record = try #require(try store.record(of: put.id))
        #expect(record.chunks.count == (size + Self.chunk - 1) / Self.chunk)
    }

    @Test func hundredMiBFileMatchesOpenSSL() throws {
        let dir = TempDir()
        let file = dir.path + "/big.bin"
        try writePatternFile(file, count: 100 << 20, seed: 42)
        let store = try ContentStore.create(at: dir.path + "/archive")
        let put = try store.put(contentsOf: file)
        #expect(put.id.hex == (try opensslDigest(file)))
        #expect(put.size == 100 << 20)
        let (digest, count) = try streamedDigest(store, put.id)
        #expect(digest == put.id)
        #expect(count == 100 << 20)
        // get -o path: the exported file is the original.
        try store.export(put.id, to: dir.path + "/out.bin")
        #expect(try opensslDigest(dir.path + "/out.bin") == put.id.hex)
    }

    @Test func smallFilesMatchOpenSSL() throws {
        let dir = TempDir()
        let store = try ContentStore.create(at: dir.path + "/archive")
        for (i, size) in [0, 1, 55, 4096, Self.chunk + 1].enumerated() {
            let file = dir.path + "/f\(i)"
            try writePatternFile(file, count: size, seed: UInt64(i) + 7)
            #expect(try store.put(contentsOf: file).id.hex == (try opensslDigest(file)))
        }
    }

    @Test func putIfAbsentAndDedup() throws {
        let dir = TempDir()
        let store = try ContentStore.create(at: dir.path + "/archive")
        let a = patternBytes(2 * Self.chunk, seed: 9)
        let b = patternBytes(Self.chunk / 2, seed: 10)
        var s1 = ByteReader(MemoryByteSource(a))
        var s2 = ByteReader(MemoryByteSource(a))
        var s3 = ByteReader(MemoryByteSource(a + b))
        let first = try store.put(from: &s1)
        let again = try store.put(from: &s2)
        let longer = try store.put(from: &s3)
        #expect(first.isNew && !again.isNew && longer.isNew)
        #expect(first.id == again.id)
        let stats = try store.stats()
        #expect(stats.blobs == 2)
        #expect(stats.chunks == 3)  // the two chunks of `a` are shared by both blobs
        #expect(stats.chunkReferences == 5)
        #expect(stats.logicalBytes == UInt64(2 * a.count + b.count))
        #expect(stats.storedBytes == UInt64(a.count + b.count))
        #expect(stats.dedupRatio > 1.6)
    }

    @Test func missingBlobIsNotFound() throws {
        let dir = TempDir()
        let store = try ContentStore.create(at: dir.path + "/archive")
        let id = ContentID(of: [UInt8]([1, 2, 3]))
        #expect(throws: CASError.notFound(id)) { try store.bytes(of: id) }
        #expect(throws: CASError.notAnArchive(path: dir.path + "/none")) { try ContentStore.open(at: dir.path + "/none") }
    }

    @Test func archiveIsPrivate() throws {
        let dir = TempDir()
        let path = dir.path + "/archive"
        _ = try ContentStore.create(at: path)
        let mode = { (p: String) in ((try FileManager.default.attributesOfItem(atPath: p)[.posixPermissions]) as? NSNumber)?.intValue }
        #expect(try mode(path) == 0o700)
        #expect(try mode(path + "/data.mdb") == 0o600)
        #expect(try mode(path + "/lock.mdb") == 0o600)
    }

    @Test func putInsideCallerTransactionCommitsOrAbortsWithIt() throws {
        let dir = TempDir()
        let store = try ContentStore.create(at: dir.path + "/archive")
        let bytes = patternBytes(Self.chunk + 5, seed: 77)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.environment.write { txn in
                _ = try store.put(bytes: bytes, in: txn)
                throw Abort()
            }
        }
        #expect(try store.contains(ContentID(of: bytes)) == false)
        #expect(try store.stats().chunks == 0)
        let put = try store.environment.write { txn in try store.put(bytes: bytes, in: txn) }
        #expect(put.isNew)
        #expect(try store.bytes(of: put.id) == bytes)
    }
}
