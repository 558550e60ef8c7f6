import CAS
import Foundation
import Ground
import LMDB
import Synchronization
import TestLiterals
import Testing

@Suite struct ConcurrencyTests {
    @Test func readerSeesAConsistentSnapshotDuringALongWrite() throws {
        let dir = TempDir()
        var options = ContentStore.Options()
        options.batchBytes = 2 << 20  // many commits
        options.environment.mapSize = 1 << 30
        let store = try ContentStore.create(at: dir.path + "/archive", options: options)
        var seed = ByteReader(MemoryByteSource(patternBytes(1000, seed: 1)))
        let first = try store.put(from: &seed)
        let bytes = patternBytes(48 << 20, seed: 2)
        let id = ContentID(of: bytes)
        let done = Atomic<Bool>(false)
        let writer = Thread {
            var s = ByteReader(MemoryByteSource(bytes))
            _ = try? store.put(from: &s)
            done.store(true, ordering: .sequentiallyConsistent)
        }
        writer.start()
        var sawPartialChunks = false
        var snapshots = 0
        while !done.load(ordering: .sequentiallyConsistent) || snapshots == 0 {
            try store.environment.read { txn in
                let chunks = try store.environment.database("cas.chunks")
                let before = try txn.count(chunks)
                let visible = try store.record(of: id, in: txn) != nil
                // Inside one snapshot nothing moves, however many commits land meanwhile.
                Thread.sleep(forTimeInterval: 0.005)
                #expect(try txn.count(chunks) == before)
                #expect((try store.record(of: id, in: txn) != nil) == visible)
                if visible {
                    var n = 0
                    try store.read(id, in: txn) { n += $0.count }
                    #expect(n == bytes.count)
                } else if before > 1 {
                    sawPartialChunks = true  // chunks committed, blob not yet visible
                }
                #expect(try store.record(of: first.id, in: txn) != nil)
            }
            snapshots += 1
        }
        while !done.load(ordering: .sequentiallyConsistent) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try store.contains(id))
        #expect(snapshots > 1)
        _ = sawPartialChunks
    }

    @Test func mapGrowsPastItsInitialSize() throws {
        let dir = TempDir()
        var options = ContentStore.Options()
        options.environment.mapSize = 1 << 20
        options.batchBytes = 4 << 20
        let store = try ContentStore.create(at: dir.path + "/archive", options: options)
        let initial = store.environment.info().mapSize
        let bytes = patternBytes(24 << 20, seed: 3)
        var s = ByteReader(MemoryByteSource(bytes))
        let put = try store.put(from: &s)
        // And inside a caller's transaction: MDB_MAP_FULL, grow, run the closure again.
        let more = patternBytes(40 << 20, seed: 4)
        let inTxn = try store.environment.write { txn in try store.put(bytes: more, in: txn) }
        #expect(store.environment.info().mapSize > initial)
        #expect(store.environment.info().mapSize >= 64 << 20)
        #expect(try store.bytes(of: put.id) == bytes)
        #expect(try store.bytes(of: inTxn.id) == more)
        #expect(try store.audit().isClean)
    }

    @Test func lmdbErrorsHaveNames() {
        #expect(LMDBError.mapFull.name == "MDB_MAP_FULL")
        #expect(LMDBError.notFound.name == "MDB_NOTFOUND")
        #expect(LMDBError.noSpace.name == "ENOSPC")
        #expect(LMDBError.noSpace.isDiskFull)
        #expect(CASError.storage(.noSpace).code == "cas.storage.diskFull")
    }

    @Test func prefixScanVisitsOnlyThePrefix() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/env", withIntermediateDirectories: true)
        let env = try Environment(path: dir.path + "/env")
        let db = try env.database("test.keys", create: true)
        try env.write { txn in
            for k in ["a/1", "a/2", "b/1", "a", "ab/1"] { try txn.put(db, Array(k.utf8), Array(k.utf8)) }
            #expect(try txn.put(db, Array("a/1".utf8), [0], flags: .noOverwrite) == false)
        }
        let seen: [String] = try env.read { txn in
            var out: [String] = []
            try txn.scan(db, prefix: Array("a/".utf8)) { k, _ in out.append(String(decoding: k, as: UTF8.self)); return .next }
            return out
        }
        #expect(seen == ["a/1", "a/2"])
        #expect(try env.read { try $0.value(db, Array("a/1".utf8)) } == Array("a/1".utf8))
    }
}
