import Foundation

/// A Swift type a binary-format value can be read as. Every conformance checks the column's type
/// and the value's length before reading (`pg.result.malformed` otherwise).
public protocol PostgresDecodable {
    static func decode(_ value: PostgresValue) throws(PostgresError) -> Self
}

extension Int64: PostgresDecodable {
    /// int8, int4 or int2 (widened).
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> Int64 {
        let b = try value.nonNull()
        switch (value.type, b.count) {
        case (.int8, 8): return Int64(bitPattern: BigEndian.read(b, as: UInt64.self))
        case (.int4, 4): return Int64(Int32(bitPattern: BigEndian.read(b, as: UInt32.self)))
        case (.int2, 2): return Int64(Int16(bitPattern: BigEndian.read(b, as: UInt16.self)))
        case (.int8, _), (.int4, _), (.int2, _): throw value.mismatch("\(b.count) bytes for an integer of its type")
        default: throw value.mismatch("cannot be read as an integer")
        }
    }
}

extension Int32: PostgresDecodable {
    /// int4 or int2; an int8 that fits.
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> Int32 {
        let v = try Int64.decode(value)
        guard let n = Int32(exactly: v) else { throw value.mismatch("\(v) does not fit in 32 bits") }
        return n
    }
}

extension Int: PostgresDecodable {
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> Int { Int(try Int64.decode(value)) }
}

extension Bool: PostgresDecodable {
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> Bool {
        let b = try value.checked([.bool], length: 1, as: "bool")
        guard b[0] <= 1 else { throw value.mismatch("bool byte \(b[0])") }
        return b[0] == 1
    }
}

extension Double: PostgresDecodable {
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> Double {
        Double(bitPattern: BigEndian.read(try value.checked([.float8], length: 8, as: "float8"), as: UInt64.self))
    }
}

extension String: PostgresDecodable {
    /// text, varchar, name or json (their binary form is the UTF-8 text), jsonb (a version byte
    /// 1, then the text). Invalid UTF-8 is refused, never repaired.
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> String {
        var b = try value.checked([.text, .varchar, .name, .json, .jsonb], as: "text")
        if value.type == .jsonb {
            guard b.first == 1 else { throw value.mismatch("jsonb version \(b.first.map(String.init) ?? "none")") }
            b = UnsafeRawBufferPointer(rebasing: b.dropFirst())
        }
        guard let s = String(validating: b, as: UTF8.self) else { throw value.mismatch("not UTF-8") }
        return s
    }
}

extension [UInt8]: PostgresDecodable {
    /// bytea (any length) or uuid (16 bytes); callers check lengths they require (a content
    /// ID: exactly 32).
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> [UInt8] {
        let b = try value.nonNull()
        switch value.type {
        case .bytea: return Array(b)
        case .uuid:
            guard b.count == 16 else { throw value.mismatch("\(b.count) bytes for a uuid") }
            return Array(b)
        default: throw value.mismatch("cannot be read as bytes")
        }
    }
}

extension Date: PostgresDecodable {
    /// timestamptz: microseconds since 2000-01-01 00:00:00 UTC (±infinity → distant future/past).
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> Date {
        let us = Int64(bitPattern: BigEndian.read(try value.checked([.timestamptz], length: 8, as: "timestamptz"), as: UInt64.self))
        if us == Int64.max { return .distantFuture }
        if us == Int64.min { return .distantPast }
        return Date(timeIntervalSince1970: 946_684_800 + Double(us) / 1_000_000)
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func decode(_ value: PostgresValue) throws(PostgresError) -> Wrapped? {
        value.bytes == nil ? nil : try Wrapped.decode(value)
    }
}

extension PostgresValue {
    /// A one-dimensional array (or an empty one): `ndim i32 ‖ hasNull i32 ‖ element OID u32 ‖
    /// (length i32 ‖ lower bound i32) ‖ per element: length i32 (-1 NULL) ‖ bytes`, every length
    /// checked against what is left and no byte left over.
    public func array<Element: PostgresDecodable>(of: Element.Type) throws(PostgresError) -> [Element] {
        let value = self
        let b = try value.nonNull()
        guard b.count >= 12 else { throw value.mismatch("array header of \(b.count) bytes") }
        let ndim = Int32(bitPattern: BigEndian.read(b, at: 0, as: UInt32.self))
        let elementType = PostgresType(oid: BigEndian.read(b, at: 8, as: UInt32.self))
        if ndim == 0 {
            guard b.count == 12 else { throw value.mismatch("empty array with trailing bytes") }
            return []
        }
        guard ndim == 1, b.count >= 20 else { throw value.mismatch("array of \(ndim) dimensions") }
        let n = Int32(bitPattern: BigEndian.read(b, at: 12, as: UInt32.self))
        guard n >= 0, Int(n) <= (b.count - 20) / 4 else { throw value.mismatch("array of \(n) elements in \(b.count) bytes") }
        var out: [Element] = []
        out.reserveCapacity(Int(n))
        var offset = 20
        for i in 0..<Int(n) {
            guard b.count - offset >= 4 else { throw value.mismatch("array element \(i) cut short") }
            let length = Int32(bitPattern: BigEndian.read(b, at: offset, as: UInt32.self))
            offset += 4
            let item: UnsafeRawBufferPointer?
            if length == -1 {
                item = nil
            } else {
                guard length >= 0, Int(length) <= b.count - offset else { throw value.mismatch("array element \(i) of \(length) bytes") }
                item = UnsafeRawBufferPointer(rebasing: b[offset..<(offset + Int(length))])
                offset += Int(length)
            }
            out.append(try Element.decode(PostgresValue(bytes: item, type: elementType, column: "\(value.column)[\(i + 1)]")))
        }
        guard offset == b.count else { throw value.mismatch("\(b.count - offset) bytes after the array") }
        return out
    }
}
