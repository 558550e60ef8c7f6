import CPQ

/// The rows a statement returned. A final class owns the `PGresult` and clears it in `deinit`;
/// values are read in PostgreSQL's binary format through `Row.decode`, which checks every type
/// and length before it reads a byte.
public final class Rows: @unchecked Sendable, RandomAccessCollection {
    let result: OpaquePointer
    /// Rows returned.
    public let count: Int
    /// The result's columns, in order.
    public let columns: [Column]
    /// Rows a command affected (`PQcmdTuples`: INSERT, UPDATE, DELETE, COPY, …; 0 when none).
    public let affected: Int

    public struct Column: Sendable, Equatable {
        public let name: String
        public let type: PostgresType
    }

    /// Takes ownership of `result` (cleared in `deinit`).
    init(owning result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columns = (0..<PQnfields(result)).map { i in
            Column(name: PQfname(result, i).map { String(cString: $0) } ?? "?", type: PostgresType(oid: PQftype(result, i)))
        }
        affected = PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }

    deinit { PQclear(result) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(position: Int) -> Row { Row(rows: self, index: position) }

    /// The only row (nil when none); more than one is `pg.result.malformed`.
    public func single() throws(PostgresError) -> Row? {
        guard count <= 1 else { throw PostgresError(.malformedResult, message: "expected at most one row, got \(count)") }
        return count == 1 ? self[0] : nil
    }

    /// The raw value of one cell (nil for NULL), valid while `self` lives.
    func value(row: Int, column: Int) throws(PostgresError) -> PostgresValue {
        guard column >= 0 && column < columns.count else {
            throw PostgresError(.malformedResult, message: "no column \(column) (the result has \(columns.count))")
        }
        let c = columns[column]
        if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
            return PostgresValue(bytes: nil, type: c.type, column: c.name)
        }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard length >= 0, let base = PQgetvalue(result, Int32(row), Int32(column)) else {
            throw PostgresError(.malformedResult, message: "column \(c.name): no value")
        }
        return PostgresValue(bytes: UnsafeRawBufferPointer(start: base, count: length), type: c.type, column: c.name)
    }
}

/// One row of `Rows`.
public struct Row: @unchecked Sendable {
    let rows: Rows
    let index: Int

    /// The value of column `column` as `T`: `Int64`, `Int32`, `Int`, `Bool`, `Double`, `String`,
    /// `[UInt8]` (bytea), `Date` (timestamptz), or `Optional` of any (NULL → nil;
    /// NULL into a non-optional is `pg.result.malformed`).
    public func decode<T: PostgresDecodable>(_ column: Int, as type: T.Type = T.self) throws(PostgresError) -> T {
        try T.decode(rows.value(row: index, column: column))
    }

    /// The one-dimensional array in column `column` (`text[]`, `bytea[]`, `bigint[]`, …), each
    /// element read as `Element` (NULL elements need an optional `Element`).
    public func decodeArray<Element: PostgresDecodable>(_ column: Int, of type: Element.Type) throws(PostgresError) -> [Element] {
        try rows.value(row: index, column: column).array(of: type)
    }

    /// The value of the column named `name`.
    public func decode<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws(PostgresError) -> T {
        guard let column = rows.columns.firstIndex(where: { $0.name == name }) else {
            throw PostgresError(.malformedResult, message: "no column \(name)")
        }
        return try decode(column, as: type)
    }
}

/// One cell in binary format: its bytes (nil for NULL), type and column name (for messages).
public struct PostgresValue {
    public let bytes: UnsafeRawBufferPointer?
    public let type: PostgresType
    public let column: String

    /// The bytes of a value that may not be NULL.
    public func nonNull() throws(PostgresError) -> UnsafeRawBufferPointer {
        guard let bytes else { throw PostgresError(.malformedResult, message: "column \(column) is NULL") }
        return bytes
    }

    /// A `pg.result.malformed` error naming this column.
    public func mismatch(_ what: String) -> PostgresError {
        PostgresError(.malformedResult, message: "column \(column) (\(type)): \(what)")
    }

    /// The bytes, after checking the type is one of `types` and the length is `length` (if given).
    func checked(_ types: Set<PostgresType>, length: Int? = nil, as name: String) throws(PostgresError) -> UnsafeRawBufferPointer {
        let b = try nonNull()
        guard types.contains(type) else { throw mismatch("cannot be read as \(name)") }
        if let length, b.count != length { throw mismatch("\(b.count) bytes, \(length) expected") }
        return b
    }
}
