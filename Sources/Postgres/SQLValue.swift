/// A statement parameter (`$1`, `$2`, …), sent in PostgreSQL's binary format with its type, so
/// the server never parses a value as SQL and `bytea` travels as raw bytes (a 32-byte content ID
/// is 32 bytes on the wire, not 66 characters of hex).
public enum SQLValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case float64(Double)
    /// `text` (UTF-8; PostgreSQL text cannot hold NUL: the server refuses it, 22021).
    case text(String)
    /// `bytea`.
    case bytes([UInt8])
    /// `text[]` (one dimension).
    case textArray([String])
    /// `bytea[]` (one dimension).
    case bytesArray([[UInt8]])
    /// `bigint[]` (one dimension).
    case int64Array([Int64])

    /// The type the value is sent as.
    public var type: PostgresType {
        switch self {
        case .null: .unknown
        case .bool: .bool
        case .int16: .int2
        case .int32: .int4
        case .int64: .int8
        case .float64: .float8
        case .text: .text
        case .bytes: .bytea
        case .textArray: .textArray
        case .bytesArray: .byteaArray
        case .int64Array: .int8Array
        }
    }

    /// The binary encoding (nil for NULL).
    func encoded() -> [UInt8]? {
        switch self {
        case .null: return nil
        case .bool(let b): return [b ? 1 : 0]
        case .int16(let v): return BigEndian.bytes(UInt16(bitPattern: v))
        case .int32(let v): return BigEndian.bytes(UInt32(bitPattern: v))
        case .int64(let v): return BigEndian.bytes(UInt64(bitPattern: v))
        case .float64(let v): return BigEndian.bytes(v.bitPattern)
        case .text(let s): return Array(s.utf8)
        case .bytes(let b): return b
        case .textArray(let a): return Self.array(a.map { Array($0.utf8) }, element: .text)
        case .bytesArray(let a): return Self.array(a, element: .bytea)
        case .int64Array(let a): return Self.array(a.map { BigEndian.bytes(UInt64(bitPattern: $0)) }, element: .int8)
        }
    }

    /// A one-dimensional array without NULLs: `ndim i32 ‖ hasNull i32 ‖ element OID u32 ‖
    /// (length i32 ‖ lower bound i32 = 1) ‖ per element: length i32 ‖ bytes` (ndim 0 when empty).
    static func array(_ elements: [[UInt8]], element: PostgresType) -> [UInt8] {
        var out: [UInt8] = []
        out += BigEndian.bytes(UInt32(elements.isEmpty ? 0 : 1))
        out += BigEndian.bytes(UInt32(0))
        out += BigEndian.bytes(element.oid)
        if elements.isEmpty { return out }
        out += BigEndian.bytes(UInt32(elements.count))
        out += BigEndian.bytes(UInt32(1))
        for e in elements {
            out += BigEndian.bytes(UInt32(e.count))
            out += e
        }
        return out
    }
}

/// A PostgreSQL type by its OID (`pg_type.oid`; the built-in ones never change).
public struct PostgresType: Hashable, Sendable, CustomStringConvertible {
    public let oid: UInt32
    public init(oid: UInt32) { self.oid = oid }

    /// "Let the server infer it" (a NULL parameter).
    public static let unknown = PostgresType(oid: 0)
    public static let bool = PostgresType(oid: 16)
    public static let bytea = PostgresType(oid: 17)
    public static let name = PostgresType(oid: 19)
    public static let int8 = PostgresType(oid: 20)
    public static let int2 = PostgresType(oid: 21)
    public static let int4 = PostgresType(oid: 23)
    public static let text = PostgresType(oid: 25)
    public static let oidType = PostgresType(oid: 26)
    public static let json = PostgresType(oid: 114)
    public static let float8 = PostgresType(oid: 701)
    public static let byteaArray = PostgresType(oid: 1001)
    public static let textArray = PostgresType(oid: 1009)
    public static let int8Array = PostgresType(oid: 1016)
    public static let varchar = PostgresType(oid: 1043)
    public static let timestamptz = PostgresType(oid: 1184)
    public static let uuid = PostgresType(oid: 2950)
    public static let void = PostgresType(oid: 2278)
    public static let jsonb = PostgresType(oid: 3802)

    public var description: String {
        switch self {
        case .bool: "bool"
        case .bytea: "bytea"
        case .name: "name"
        case .int8: "int8"
        case .int2: "int2"
        case .int4: "int4"
        case .text: "text"
        case .json: "json"
        case .float8: "float8"
        case .varchar: "varchar"
        case .timestamptz: "timestamptz"
        case .uuid: "uuid"
        case .void: "void"
        case .jsonb: "jsonb"
        default: "oid \(oid)"
        }
    }
}

/// Big-endian integers, as PostgreSQL's binary format writes them.
enum BigEndian {
    static func bytes<T: FixedWidthInteger & UnsignedInteger>(_ v: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: v >> (T.bitWidth - 8 - 8 * $0)) }
    }

    /// The integer in exactly `T.bitWidth / 8` bytes (the caller checked the length).
    static func read<T: FixedWidthInteger & UnsignedInteger>(_ p: UnsafeRawBufferPointer, at offset: Int = 0, as: T.Type) -> T {
        var v: T = 0
        for i in 0..<(T.bitWidth / 8) { v = v << 8 | T(p[offset + i]) }
        return v
    }
}

/// SQL text helpers.
public enum SQL {
    /// An identifier quoted for PostgreSQL (`"name"`, inner quotes doubled), for the few places
    /// an identifier cannot be a parameter (a schema name in `CREATE SCHEMA`).
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
