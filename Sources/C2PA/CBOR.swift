/// A CBOR data item (RFC 8949).
///
/// Maps keep their pairs in the order they were read or built: C2PA hashes the bytes as written,
/// so a reader never re-sorts and a writer chooses the order on purpose.
public indirect enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// A negative integer: the value is `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([CBORPair])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null
    case undefined
    case double(Double)
    /// A simple value other than false/true/null/undefined.
    case simple(UInt8)

    /// An integer item from a Swift `Int`.
    public static func int(_ v: Int) -> CBOR {
        v >= 0 ? .unsigned(UInt64(v)) : .negative(UInt64(-(v + 1)))
    }

    /// A map from (text key, value) pairs in the given order.
    public static func textMap(_ pairs: [(String, CBOR)]) -> CBOR {
        .map(pairs.map { CBORPair(.text($0.0), $0.1) })
    }
}

/// One key/value pair of a CBOR map.
public struct CBORPair: Equatable, Sendable {
    public var key: CBOR
    public var value: CBOR
    public init(_ key: CBOR, _ value: CBOR) {
        self.key = key
        self.value = value
    }
}

extension CBOR {
    /// The value under a text key of a map (first match), else nil.
    public subscript(key: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .text(key) }?.value
    }

    /// The value under an integer key of a map (first match), else nil.
    public subscript(intKey key: Int) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .int(key) }?.value
    }

    public var textValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    public var arrayValue: [CBOR]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var mapValue: [CBORPair]? {
        if case .map(let m) = self { return m }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// An integer that fits in `Int`, else nil.
    public var intValue: Int? {
        switch self {
        case .unsigned(let u): return u <= UInt64(Int.max) ? Int(u) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: return nil
        }
    }

    /// A number as Double (integers or floats), else nil.
    public var doubleValue: Double? {
        switch self {
        case .double(let d): return d
        case .unsigned(let u): return Double(u)
        case .negative(let n): return -1 - Double(n)
        default: return nil
        }
    }

    public var isNull: Bool { self == .null }
}
