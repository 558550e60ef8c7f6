import Foundation
import PostgresTestSupport
import Testing
@testable import Postgres

/// Transactions scoped to closures: returning commits, throwing rolls back; psql (another
/// client) is the witness.
@Suite struct TransactionTests {
    struct Planned: Error {}

    let schema: TestSchema
    let c: Connection
    init() throws {
        schema = try TestSchema()
        c = try schema.connect()
        try c.executeScript("""
            CREATE TABLE t (k text PRIMARY KEY, v int8 NOT NULL CHECK (v >= 0));
            CREATE TABLE child (k text REFERENCES t (k));
            """)
    }

    @Test func returningCommitsThrowingRollsBack() throws {
        let n = try c.write { tx throws in
            try tx.execute("INSERT INTO t VALUES ('a', 1)")
            return try tx.execute("INSERT INTO t VALUES ('b', 2)").affected
        }
        #expect(n == 1)
        #expect(throws: Planned.self) {
            try c.write { tx throws in
                try tx.execute("INSERT INTO t VALUES ('c', 3)")
                throw Planned()
            }
        }
        #expect(schema.psql("SELECT string_agg(k, ',' ORDER BY k) FROM t").output == "a,b")
        // The connection is usable after the rollback.
        #expect(try c.execute("SELECT count(*) FROM t").single()?.decode(0, as: Int.self) == 2)
    }

    @Test func readIsOneReadOnlySnapshot() throws {
        try c.execute("INSERT INTO t VALUES ('a', 1)")
        let (before, after) = try c.read { tx throws in
            let before = try tx.execute("SELECT count(*) FROM t").single()!.decode(0, as: Int.self)
            #expect(schema.psql("INSERT INTO t VALUES ('z', 9)").status == 0)  // another client commits
            let after = try tx.execute("SELECT count(*) FROM t").single()!.decode(0, as: Int.self)
            return (before, after)
        }
        #expect(before == 1 && after == 1)
        let error = #expect(throws: PostgresError.self) { try c.read { tx in try tx.execute("INSERT INTO t VALUES ('q', 1)") } }
        #expect(error?.sqlState == "25006")
    }

    @Test func constraintViolationsAreTyped() throws {
        try c.execute("INSERT INTO t VALUES ('a', 1)")
        func failure(_ sql: String) -> PostgresError? {
            do { try c.execute(sql); return nil } catch { return error }
        }
        let unique = failure("INSERT INTO t VALUES ('a', 2)")
        #expect(unique?.code == .uniqueViolation && unique?.sqlState == "23505" && unique?.constraint == "t_pkey")
        #expect(failure("INSERT INTO t VALUES ('n', -1)")?.code == .checkViolation)
        #expect(failure("INSERT INTO t VALUES ('n', NULL)")?.code == .notNullViolation)
        #expect(failure("INSERT INTO child VALUES ('nope')")?.code == .foreignKeyViolation)
        #expect(failure("SELECT * FROM no_such_table")?.code == .server)
        #expect(failure("SELECT * FROM no_such_table")?.sqlState == "42P01")
    }

    /// A closure that swallows a failed statement and returns: nothing is committed, and the
    /// caller learns it (COMMIT would silently have rolled back).
    @Test func aSwallowedFailureRollsBackAndIsReported() throws {
        var next: PostgresError? = nil
        let error = #expect(throws: PostgresError.self) {
            try c.write { tx throws in
                try tx.execute("INSERT INTO t VALUES ('a', 1)")
                _ = try? tx.execute("INSERT INTO t VALUES ('a', 1)")
                do { try tx.execute("SELECT 1") } catch { next = error as? PostgresError }
            }
        }
        #expect(next?.code == .transactionAborted)
        #expect(error?.code == .transactionAborted)
        #expect(schema.psql("SELECT count(*) FROM t").output == "0")
    }

    @Test func misuseIsTyped() throws {
        var escaped: Transaction? = nil
        try c.write { tx in escaped = tx }
        let late = #expect(throws: PostgresError.self) { try escaped?.execute("SELECT 1") }
        #expect(late?.code == .misuse)
        let nested = #expect(throws: PostgresError.self) { try c.write { _ in try c.write { _ in } } }
        #expect(nested?.code == .misuse)
        let inside = #expect(throws: PostgresError.self) { try c.write { _ in try c.execute("SELECT 1") } }
        #expect(inside?.code == .misuse)
    }

    @Test func advisoryLocksAreHeldUntilCommit() throws {
        let other = try schema.connect()
        let key = Int64.random(in: 1...Int64.max)
        try c.write { tx throws in
            try tx.advisoryLock(key)
            #expect(try other.write { try !$0.tryAdvisoryLock(key) })
            #expect(try tx.tryAdvisoryLock(key))  // re-entrant for its holder
        }
        #expect(try other.write { try $0.tryAdvisoryLock(key) })
    }

    @Test func setLocalLastsOneTransaction() throws {
        try c.write { tx throws in
            try tx.setLocal("lock_timeout", "50ms")
            #expect(try tx.execute("SELECT current_setting('lock_timeout')").single()?.decode(0, as: String.self) == "50ms")
        }
        #expect(try c.execute("SELECT current_setting('lock_timeout')").single()?.decode(0, as: String.self) == "0")
    }

    /// A row locked by another transaction: `lock_timeout` gives `pg.lock.notAvailable`, and
    /// `FOR UPDATE SKIP LOCKED` passes over it.
    @Test func lockedRowsTimeOutOrAreSkipped() throws {
        try c.execute("INSERT INTO t SELECT 'k' || n, n FROM generate_series(1, 3) n")
        let other = try schema.connect()
        try c.write { tx throws in
            try tx.execute("SELECT * FROM t WHERE k = 'k1' FOR UPDATE")
            let error = #expect(throws: PostgresError.self) {
                try other.write { o throws in
                    try o.setLocal("lock_timeout", "100ms")
                    try o.execute("SELECT * FROM t WHERE k = 'k1' FOR UPDATE")
                }
            }
            #expect(error?.code == .lockNotAvailable)
            let free = try other.write { o throws in
                try o.execute("SELECT k FROM t ORDER BY k FOR UPDATE SKIP LOCKED").map { try $0.decode(0, as: String.self) }
            }
            #expect(free == ["k2", "k3"])
        }
    }
}
