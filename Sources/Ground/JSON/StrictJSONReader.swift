/// A cursor over JSON text that reads only a strict subset of it, for the readers of the exact
/// shapes the archive writes (disclosure bundles, record bodies, reports) beside Foundation's
/// `JSONDecoder`: every `read…` returns nil (or false) as soon as the input leaves the subset,
/// and the caller then hands the whole input to `JSONDecoder`, so values and error texts are
/// `JSONDecoder`'s whatever the input.
///
/// The subset: objects, arrays, strings, integers `-?(0|[1-9][0-9]*)` in range (no `-0`),
/// numbers in the form `Double.description` writes, `true`/`false`, `null` only where a reader
/// asks for it, whitespace only where JSON allows it. Strings are valid UTF-8 without control
/// characters; `string()` refuses escapes, `escapedString()` takes the two-character escapes
/// (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`) but not `\u`.
public struct StrictJSONReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var at = 0
    /// Objects and arrays open; `maxDepth` caps it.
    @usableFromInline var depth = 0
    public static let maxDepth = 32

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    @inlinable mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0a, 0x0d: at += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then consumes `byte` if it is next.
    @inlinable public mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// Whether only whitespace is left.
    @inlinable public mutating func atEnd() -> Bool {
        skipSpace()
        return at == bytes.count
    }

    /// A string without escapes or control characters, valid UTF-8.
    @inlinable public mutating func string() -> String? {
        guard take(0x22) else { return nil }
        let start = at
        while at < bytes.count {
            let c = bytes[at]
            if c == 0x22 {
                let s = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                at += 1
                return s
            }
            if c < 0x20 || c == 0x5c { return nil }
            at += 1
        }
        return nil
    }

    /// A string that may hold the two-character escapes (`JSONEncoder` writes `/` as `\/`
    /// unless told not to); `\u` escapes and control characters are refused.
    @inlinable public mutating func escapedString() -> String? {
        let mark = at
        if let s = string() { return s }
        at = mark
        guard take(0x22) else { return nil }
        var out: [UInt8] = []
        var start = at
        while at < bytes.count {
            let c = bytes[at]
            if c == 0x22 {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
                at += 1
                return String(validating: out, as: UTF8.self)
            }
            if c < 0x20 { return nil }
            if c == 0x5c {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
                guard at + 1 < bytes.count else { return nil }
                switch bytes[at + 1] {
                case 0x22, 0x5c, 0x2f: out.append(bytes[at + 1])
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0c)
                case 0x6e: out.append(0x0a)
                case 0x72: out.append(0x0d)
                case 0x74: out.append(0x09)
                default: return nil
                }
                at += 2
                start = at
                continue
            }
            at += 1
        }
        return nil
    }

    /// An integer `-?(0|[1-9][0-9]*)` in Int's range; `-0`, fractions and exponents are refused.
    @inlinable public mutating func int() -> Int? {
        skipSpace()
        var negative = false
        if at < bytes.count, bytes[at] == 0x2d { negative = true; at += 1 }
        let start = at
        var value = 0
        while at < bytes.count, (0x30...0x39).contains(bytes[at]) {
            let d = Int(bytes[at] - 0x30)
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            value = s
            at += 1
        }
        let digits = at - start
        guard digits > 0, !(digits > 1 && bytes[start] == 0x30), !(negative && value == 0) else { return nil }
        if at < bytes.count, bytes[at] == 0x2e || bytes[at] == 0x65 || bytes[at] == 0x45 { return nil }
        return value
    }

    @inlinable public mutating func uint32() -> UInt32? { int().flatMap { UInt32(exactly: $0) } }
    /// A non-negative integer `0|[1-9][0-9]*` in UInt64's range.
    @inlinable public mutating func uint64() -> UInt64? {
        skipSpace()
        let start = at
        var value: UInt64 = 0
        while at < bytes.count, (0x30...0x39).contains(bytes[at]) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(bytes[at] - 0x30))
            guard !o1, !o2 else { return nil }
            value = s
            at += 1
        }
        let digits = at - start
        guard digits > 0, !(digits > 1 && bytes[start] == 0x30) else { return nil }
        if at < bytes.count, bytes[at] == 0x2e || bytes[at] == 0x65 || bytes[at] == 0x45 { return nil }
        return value
    }

    /// A finite number as `Double.description` writes it (`JSONEncoder`'s form, `.0` dropped):
    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?(e[+-][0-9]+)?`, read by `Double(_:)` (correctly rounded,
    /// as `JSONDecoder` reads it). Anything else (`1E5`, `.5`, `-0`, `1e5`) is refused.
    @inlinable public mutating func double() -> Double? {
        skipSpace()
        let start = at
        if at < bytes.count, bytes[at] == 0x2d { at += 1 }
        let intStart = at
        while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
        // At most 16 integer digits: `description` writes larger magnitudes with an exponent.
        guard at > intStart, at - intStart <= 16, !(at - intStart > 1 && bytes[intStart] == 0x30) else { return nil }
        if at < bytes.count, bytes[at] == 0x2e {
            at += 1
            let f = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
            guard at > f else { return nil }
        }
        if at < bytes.count, bytes[at] == 0x65 {
            at += 1
            guard at < bytes.count, bytes[at] == 0x2b || bytes[at] == 0x2d else { return nil }
            at += 1
            let e = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
            guard at > e else { return nil }
        }
        if at < bytes.count, bytes[at] == 0x45 || bytes[at] == 0x2e { return nil }
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self),
              let v = Double(text), v.isFinite, !(v == 0 && v.sign == .minus) else { return nil }
        return v
    }

    /// `true` or `false`.
    @inlinable public mutating func bool() -> Bool? {
        if word(0x74, 0x72, 0x75, 0x65) { return true }
        if word(0x66, 0x61, 0x6c, 0x73, 0x65) { return false }
        return nil
    }

    /// `null` (consumed, true) or not (nothing consumed, false).
    @inlinable public mutating func null() -> Bool { word(0x6e, 0x75, 0x6c, 0x6c) }

    @inlinable mutating func word(_ letters: UInt8...) -> Bool {
        skipSpace()
        guard bytes.count - at >= letters.count else { return false }
        for (i, l) in letters.enumerated() where bytes[at + i] != l { return false }
        at += letters.count
        return true
    }

    /// `[ element, … ]`.
    @inlinable public mutating func array<T>(_ element: (inout StrictJSONReader) -> T?) -> [T]? {
        guard depth < Self.maxDepth, take(0x5b) else { return nil }
        depth += 1
        defer { depth -= 1 }
        var out: [T] = []
        if take(0x5d) { return out }
        repeat {
            guard let e = element(&self) else { return nil }
            out.append(e)
        } while take(0x2c)
        return take(0x5d) ? out : nil
    }

    /// `{ "key" : value, … }`: `value` reads the value of each key and returns false to refuse
    /// it (an unknown key, a second occurrence or a value outside the subset). Keys are read
    /// as `escapedString()` reads strings.
    @inlinable public mutating func object(_ value: (inout StrictJSONReader, String) -> Bool) -> Bool {
        guard depth < Self.maxDepth, take(0x7b) else { return false }
        depth += 1
        defer { depth -= 1 }
        if take(0x7d) { return true }
        repeat {
            guard let key = escapedString(), take(0x3a), value(&self, key) else { return false }
        } while take(0x2c)
        return take(0x7d)
    }

    /// A content ID as its `Codable` form reads it (64 lowercase hex digits).
    @inlinable public mutating func contentID() -> ContentID? { string().flatMap { ContentID(hex: $0) } }

    /// A vocabulary word (`Integrity`, `SidecarState`, …) as its raw value.
    @inlinable public mutating func vocabulary<W: RawRepresentable>(_: W.Type) -> W? where W.RawValue == String {
        string().flatMap(W.init(rawValue:))
    }

    @inlinable public mutating func strings() -> [String]? { array { $0.string() } }
    @inlinable public mutating func escapedStrings() -> [String]? { array { $0.escapedString() } }
}

/// Reads a key's value into its empty slot: false for a key seen twice or a refused value.
@inlinable public func readOnce<T>(_ slot: inout T?, _ read: () -> T?) -> Bool {
    guard slot == nil else { return false }
    slot = read()
    return slot != nil
}
