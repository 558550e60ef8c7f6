import ArchivePostgres
import Crypto
import Foundation
import Postgres
import PostgresTestSupport
import Synchronization
import Testing

/// One hash chain, many writers. Events follow `TestChain.event`'s rule, which psql recomputes
/// (`custodyVerdict`), so the server checks every link itself.
@Suite struct CustodyChainTests {
    let db: MigratedSchema
    init() throws { db = try MigratedSchema() }

    static func event(_ text: String) -> (UInt64, [UInt8]) -> (stored: [UInt8], hash: [UInt8]) { TestChain.event(text) }

    /// psql's verdict on the whole chain (`TestSchema.custodyVerdict`).
    func psqlVerdict() -> String { db.test.custodyVerdict() }

    @Test func appendsChainAndIndexTheirObjects() throws {
        let c = db.connection
        let heads = try c.write { tx throws in
            try [CustodyChain.append(objects: ["rec-a", "blob-1", "rec-a"], in: tx, Self.event("ingest")),
                 CustodyChain.append(objects: ["rec-b"], in: tx, Self.event("ingest")),
                 CustodyChain.append(objects: ["rec-a"], in: tx, Self.event("validation"))]
        }
        #expect(heads.map(\.seq) == [1, 2, 3])
        try c.read { tx throws in
            #expect(try CustodyChain.head(in: tx) == heads[2])
            let events = try CustodyChain.events(in: tx)
            #expect(events.map(\.seq) == [1, 2, 3])
            #expect(events[0].prevHash == [UInt8](repeating: 0, count: 32))
            #expect(events[1].prevHash == events[0].hash && events[2].prevHash == events[1].hash)
            #expect(try CustodyChain.events(forObject: "rec-a", in: tx).map(\.seq) == [1, 3])
            #expect(try CustodyChain.events(forObject: "blob-1", in: tx).map(\.seq) == [1])
            #expect(try CustodyChain.events(after: 1, limit: 1, in: tx).map(\.seq) == [2])
            #expect(try CustodyChain.brokenLinks(in: tx) == [])
        }
        #expect(psqlVerdict() == "3|3|1|3|0|t")
    }

    /// A rolled-back append leaves no gap: the head rolls back with it.
    @Test func aRolledBackAppendLeavesNoGap() throws {
        struct Abort: Error {}
        let c = db.connection
        try c.write { tx in _ = try CustodyChain.append(objects: ["x"], in: tx, Self.event("one")) }
        #expect(throws: Abort.self) {
            try c.write { tx throws in
                _ = try CustodyChain.append(objects: ["x"], in: tx, Self.event("rolled back"))
                throw Abort()
            }
        }
        let head = try c.write { tx in try CustodyChain.append(objects: ["x"], in: tx, Self.event("two")) }
        #expect(head.seq == 2)
        #expect(psqlVerdict() == "2|2|1|2|0|t")
    }

    /// Another client (psql) cannot break the chain: an event that skips a seq, reuses one or
    /// does not link to the head is refused, and events cannot be changed or deleted.
    @Test func theDatabaseRefusesWhatWouldBreakTheChain() throws {
        try db.connection.write { tx in for _ in 0..<2 { _ = try CustodyChain.append(objects: [], in: tx, Self.event("e")) } }
        let hash2 = db.psql("SELECT encode(hash, 'hex') FROM custody_events WHERE seq = 2").output
        func insert(_ seq: Int, prev: String) -> Run.Result {
            db.psql("INSERT INTO custody_events VALUES (\(seq), '\\x\(prev)', sha256('x'), 'body' || sha256('x'))")
        }
        for (seq, prev) in [(4, hash2), (2, hash2), (3, String(repeating: "00", count: 32))] {
            let run = insert(seq, prev: prev)
            #expect(run.status != 0 && run.stderr.contains("does not continue the head"), "\(seq): \(run.stderr)")
        }
        #expect(insert(3, prev: hash2).status == 0)  // the one that does continue it
        for sql in ["UPDATE custody_events SET stored = stored WHERE seq = 1", "DELETE FROM custody_events WHERE seq = 3",
                    "TRUNCATE custody_events CASCADE"] {
            let run = db.psql(sql)
            #expect(run.status != 0 && run.stderr.contains("append-only"), "\(sql): \(run.stderr)")
        }
        let badTail = db.psql("INSERT INTO custody_events VALUES (4, (SELECT hash FROM custody_head), sha256('y'), 'body' || sha256('z'))")
        #expect(badTail.status != 0 && badTail.stderr.contains("custody_events_check"), "\(badTail.stderr)")
        let broken = try db.connection.read { tx in try CustodyChain.brokenLinks(in: tx) }
        #expect(broken == [])
        let invalid = #expect(throws: ArchivePostgresError.self) {
            try db.connection.write { tx in try CustodyChain.append(objects: [], in: tx) { _, _ in ([1, 2, 3], [UInt8](repeating: 1, count: 32)) } }
        }
        #expect(invalid?.code == "custody.event.invalid")
    }

    /// Two writers append as fast as they can, each event in its own transaction, serialized by
    /// the chain's advisory lock (READ COMMITTED): every append succeeds, no seq is used twice,
    /// none is skipped, every link and hash holds.
    @Test func twoWritersWithTheAdvisoryLock() throws {
        let perWriter = 300
        let db = self.db
        let failures = onThreads(2) { w in
            let c = try db.connect()
            for _ in 0..<perWriter {
                try c.write { tx in _ = try CustodyChain.append(objects: ["writer-\(w)"], in: tx, Self.event("writer \(w)")) }
            }
        }
        #expect(failures == [])
        let n = 2 * perWriter
        #expect(psqlVerdict() == "\(n)|\(n)|1|\(n)|0|t")
        let (broken, mine) = try db.connection.read { tx throws in
            (try CustodyChain.brokenLinks(in: tx), try CustodyChain.events(forObject: "writer-0", in: tx).count)
        }
        #expect(broken == [] && mine == perWriter)
    }

    /// The other way: SERIALIZABLE transactions whose stale appends the database refuses with
    /// 40001, run again by `serializable`'s bounded retry.
    @Test func twoWritersSerializableWithRetry() throws {
        let perWriter = 150
        let db = self.db
        let retried = Mutex(0)
        let failures = onThreads(2) { w in
            let c = try db.connect()
            for _ in 0..<perWriter {
                try c.serializable(retry: RetryPolicy(maxAttempts: 100, baseDelay: 0.001, maxDelay: 0.02)) { tx in
                    if tx.attempt > 1 { retried.withLock { $0 += 1 } }
                    _ = try CustodyChain.append(objects: [], in: tx, Self.event("serializable \(w)"))
                }
            }
        }
        #expect(failures == [])
        let n = 2 * perWriter
        #expect(psqlVerdict() == "\(n)|\(n)|1|\(n)|0|t")
        print("CustodyChainTests.twoWritersSerializableWithRetry: \(retried.withLock { $0 }) runs retried")
    }

    /// Writers that skip the lock (READ COMMITTED, raw inserts of what they read as the head):
    /// the trigger serializes them on the head row and refuses every stale event with a named
    /// error; what is stored is still one whole chain.
    @Test func writersWithoutTheLockAreRefusedNotForked() throws {
        let db = self.db
        let refused = Mutex(0)
        let failures = onThreads(3) { w in
            let c = try db.connect()
            for _ in 0..<60 {
                do {
                    try c.write { tx throws in
                        let head = try CustodyChain.head(in: tx)
                        let (stored, hash) = Self.event("unlocked \(w)")(head.seq + 1, head.hash)
                        try tx.execute("INSERT INTO custody_events VALUES ($1, $2, $3, $4)",
                                       [.int64(Int64(head.seq + 1)), .bytes(head.hash), .bytes(hash), .bytes(stored)])
                    }
                } catch let e as PostgresError where e.sqlState == "EXC01" || e.code == .uniqueViolation {
                    refused.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures == [])
        let stored = 180 - refused.withLock { $0 }
        #expect(psqlVerdict() == "\(stored)|\(stored)|1|\(stored)|0|t")
        print("CustodyChainTests.writersWithoutTheLockAreRefusedNotForked: \(refused.withLock { $0 }) of 180 refused")
    }
}
