import PostgresTestSupport
import Testing
@testable import Postgres

/// `COPY … FROM STDIN` in text format: every awkward byte escaped, NULLs, bytea; psql reads
/// back what was stored.
@Suite struct CopyTests {
    let schema: TestSchema
    let c: Connection
    init() throws {
        schema = try TestSchema()
        c = try schema.connect()
        try c.execute("CREATE TABLE t (n int8 PRIMARY KEY, s text, b bytea)")
    }

    @Test func awkwardTextNullsAndBytesSurvive() throws {
        let texts = ["plain", "tab\there", "new\nline", "back\\slash", "cr\rx", "\\N", "ünï\u{1F600}", ""]
        let stored = try c.copy("COPY t (n, s, b) FROM STDIN") { rows in
            for (i, s) in texts.enumerated() { try rows.append([.int(Int64(i)), .text(s), .bytes([UInt8(i), 0, 0x5c, 0xff])]) }
            try rows.append([.int(99), .null, .null])
        }
        #expect(stored == texts.count + 1)
        let back = try c.execute("SELECT n, s, b FROM t ORDER BY n")
        for (i, s) in texts.enumerated() {
            #expect(try back[i].decode(1, as: String.self) == s)
            #expect(try back[i].decode(2, as: [UInt8].self) == [UInt8(i), 0, 0x5c, 0xff])
        }
        #expect(try back[texts.count].decode(1, as: String?.self) == nil)
        #expect(schema.psql("SELECT encode(b, 'hex') FROM t WHERE n = 3").output == "03005cff")
        #expect(schema.psql("SELECT count(*) FROM t WHERE s IS NULL AND b IS NULL").output == "1")
    }

    /// More than one 1 MiB piece, inside a transaction that then rolls back: nothing stays.
    @Test func largeCopiesStreamAndRollBack() throws {
        struct Stop: Error {}
        let n = 60_000
        #expect(throws: Stop.self) {
            try c.write { tx throws in
                let stored = try tx.copy("COPY t (n, s) FROM STDIN") { rows in
                    for i in 0..<n { try rows.append([.int(Int64(i)), .text(String(repeating: "x", count: 30))]) }
                }
                #expect(stored == n)
                #expect(try tx.execute("SELECT count(*) FROM t").single()?.decode(0, as: Int.self) == n)
                throw Stop()
            }
        }
        #expect(schema.psql("SELECT count(*) FROM t").output == "0")
        #expect(try c.copy("COPY t (n, s) FROM STDIN") { rows in
            for i in 0..<n { try rows.append([.int(Int64(i)), .text("y")]) }
        } == n)
    }

    @Test func aFailingCopyStoresNothingAndNamesTheError() throws {
        let error = #expect(throws: PostgresError.self) {
            try c.copy("COPY t (n, s) FROM STDIN") { rows in
                try rows.append([.int(1), .text("a")])
                try rows.append([.int(1), .text("duplicate")])
            }
        }
        #expect(error?.code == .uniqueViolation)
        struct Stop: Error {}
        #expect(throws: Stop.self) { try c.copy("COPY t (n) FROM STDIN") { rows in try rows.append([.int(5)]); throw Stop() } }
        let nul = #expect(throws: PostgresError.self) { try c.copy("COPY t (n, s) FROM STDIN") { try $0.append([.int(1), .text("a\u{0}")]) } }
        #expect(nul?.code == .invalidParameter)
        #expect(schema.psql("SELECT count(*) FROM t").output == "0")
        #expect(try c.execute("SELECT 1").count == 1)  // the connection is usable
    }
}
