import Foundation
import PostgresTestSupport
import Testing
@testable import Postgres

/// Parameters go in binary with their types; results come back in binary and are read only
/// after their type and length are checked.
@Suite struct ParameterTests {
    let c: Connection
    init() throws { c = try TestServer.get().connect() }

    func one(_ sql: String, _ p: [SQLValue] = []) throws -> Row {
        try #require(try c.execute(sql, p).single())
    }

    @Test func scalarsRoundTrip() throws {
        let row = try one("SELECT $1::bool, $2::int2, $3::int4, $4::int8, $5::float8, $6::text, $7::bytea, $8::text",
                          [.bool(true), .int16(-7), .int32(Int32.min), .int64(Int64.max), .float64(-0.125),
                           .text("grüße\t\n\\ \u{1F600}"), .bytes([0, 1, 255, 0x5c]), .null])
        #expect(try row.decode(0, as: Bool.self) == true)
        #expect(try row.decode(1, as: Int64.self) == -7)
        #expect(try row.decode(2, as: Int32.self) == Int32.min)
        #expect(try row.decode(3, as: Int64.self) == Int64.max)
        #expect(try row.decode(4, as: Double.self) == -0.125)
        #expect(try row.decode(5, as: String.self) == "grüße\t\n\\ \u{1F600}")
        #expect(try row.decode(6, as: [UInt8].self) == [0, 1, 255, 0x5c])
        #expect(try row.decode(7, as: String?.self) == nil)
        #expect(try row.decode("bool", as: Bool.self) == true)  // by name: the first column so named
    }

    /// A content ID is 32 bytes on the wire and in the table, not hex text.
    @Test func byteaTravelsAsRawBytes() throws {
        let id = (0..<32).map { UInt8($0 * 7 & 0xff) }
        let row = try one("SELECT octet_length($1), encode($1, 'hex'), $1", [.bytes(id)])
        #expect(try row.decode(0, as: Int.self) == 32)
        #expect(try row.decode(1, as: String.self) == id.map { String(format: "%02x", $0) }.joined())
        #expect(try row.decode(2, as: [UInt8].self) == id)
        #expect(try one("SELECT octet_length($1)", [.bytes([])]).decode(0, as: Int.self) == 0)
    }

    @Test func arraysRoundTrip() throws {
        let row = try one("SELECT $1::text[], $2::bytea[], $3::int8[], cardinality($1), $4::text[]",
                          [.textArray(["a", "", "ü,{}\""]), .bytesArray([[1, 2], []]), .int64Array([-1, 0, 1 << 40]), .textArray([])])
        #expect(try row.decodeArray(0, of: String.self) == ["a", "", "ü,{}\""])
        #expect(try row.decodeArray(1, of: [UInt8].self) == [[1, 2], []])
        #expect(try row.decodeArray(2, of: Int64.self) == [-1, 0, 1 << 40])
        #expect(try row.decode(3, as: Int.self) == 3)
        #expect(try row.decodeArray(4, of: String.self) == [])
        #expect(try one("SELECT ARRAY['x', NULL]").decodeArray(0, of: String?.self) == ["x", nil])
        #expect(throws: PostgresError.self) { try one("SELECT ARRAY['x', NULL]").decodeArray(0, of: String.self) }
        #expect(throws: PostgresError.self) { try one("SELECT ARRAY[[1,2],[3,4]]").decodeArray(0, of: Int64.self) }
    }

    @Test func timestampsAndWidening() throws {
        let row = try one("SELECT timestamptz '2026-12-01 12:34:56.789+00', 'infinity'::timestamptz, 5::int2, 70000::int4")
        #expect(abs(try row.decode(0, as: Date.self).timeIntervalSince1970 - 1_796_128_496.789) < 0.0005)
        #expect(try row.decode(1, as: Date.self) == .distantFuture)
        #expect(try row.decode(2, as: Int.self) == 5)
        #expect(try row.decode(3, as: Int64.self) == 70000)
    }

    @Test func wrongTypesNullsAndOverflowAreMalformedResults() throws {
        let row = try one("SELECT 'x'::text, NULL::int8, (1::int8 << 40), 1::int4, '\\x00'::bytea, gen_random_uuid()")
        func code(_ body: () throws -> Void) -> PostgresError.Code? {
            do { try body(); return nil } catch let e as PostgresError { return e.code } catch { return nil }
        }
        #expect(code { _ = try row.decode(0, as: Int64.self) } == .malformedResult)
        #expect(code { _ = try row.decode(1, as: Int64.self) } == .malformedResult)  // NULL into non-optional
        #expect(try row.decode(1, as: Int64?.self) == nil)
        #expect(code { _ = try row.decode(2, as: Int32.self) } == .malformedResult)  // does not fit
        #expect(code { _ = try row.decode(3, as: Bool.self) } == .malformedResult)
        #expect(code { _ = try row.decode(4, as: String.self) } == .malformedResult)
        #expect(try row.decode(5, as: [UInt8].self).count == 16)
        #expect(code { _ = try row.decode(9, as: String.self) } == .malformedResult)  // no such column
        #expect(code { _ = try row.decode("nope", as: String.self) } == .malformedResult)
        #expect(code { _ = try c.execute("SELECT 1 UNION ALL SELECT 2").single() } == .malformedResult)
    }

    /// PostgreSQL text cannot hold NUL: refused before anything is sent.
    @Test func nulInTextIsRefusedByTheClient() throws {
        let error = #expect(throws: PostgresError.self) { try c.execute("SELECT $1::text", [.text("a\u{0}b")]) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.message == "text parameter $1 holds a NUL byte")
        #expect(throws: PostgresError.self) { try c.execute("SELECT 1\u{0}") }
        #expect(try c.execute("SELECT $1::bytea", [.bytes([0])]).count == 1)  // bytes may
    }

    @Test func affectedRowsAreCounted() throws {
        let schema = try TestSchema()
        let s = try schema.connect()
        try s.execute("CREATE TABLE t (n int8 PRIMARY KEY)")
        #expect(try s.execute("INSERT INTO t SELECT generate_series(1, 25)").affected == 25)
        #expect(try s.execute("DELETE FROM t WHERE n > $1", [.int64(20)]).affected == 5)
        #expect(schema.psql("SELECT count(*) FROM t").output == "20")
    }
}
