import Foundation

/// Writes JSON text byte for byte as Foundation's `JSONEncoder` writes it with
/// `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]` and `.iso8601` dates — or, with
/// `escapingSlashes`, `[.sortedKeys]` (`/` written `\/`, as record bodies are) — without the
/// Codable machinery (a report is written per capture; `JSONEncoder` cost ~0.1 ms each).
///
/// The caller writes an object's keys in ascending UTF-8 byte order (what `.sortedKeys`
/// produces) and skips absent optionals (what synthesized `Encodable` does); debug builds trap
/// on a key out of order. `CaptureReportJSONTests` and `RecordBodyJSONTests` pin the output to
/// `JSONEncoder`'s.
public struct JSONText {
    public var bytes: [UInt8] = []
    /// Per open object or array: whether the next member needs a comma, and the last key.
    @usableFromInline var open: [(hasMember: Bool, lastKey: StaticString?)] = []
    /// Whether `/` is written `\/` (`JSONEncoder` without `.withoutEscapingSlashes`).
    public let escapingSlashes: Bool

    public init(capacity: Int = 4096, escapingSlashes: Bool = false) {
        bytes.reserveCapacity(capacity)
        self.escapingSlashes = escapingSlashes
    }

    // MARK: Structure

    @inlinable public mutating func beginObject() { bytes.append(UInt8(ascii: "{")); open.append((false, nil)) }
    @inlinable public mutating func endObject() { bytes.append(UInt8(ascii: "}")); open.removeLast() }
    @inlinable public mutating func beginArray() { bytes.append(UInt8(ascii: "[")); open.append((false, nil)) }
    @inlinable public mutating func endArray() { bytes.append(UInt8(ascii: "]")); open.removeLast() }

    /// Starts a member of the innermost object: comma, `"key":`.
    @inlinable public mutating func key(_ k: StaticString) {
        separate()
        assert(open[open.count - 1].lastKey.map { JSONText.precedes($0, k) } ?? true, "JSON key \(k) out of order")
        open[open.count - 1].lastKey = k
        bytes.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// Starts a member under a key known only at run time (a dictionary's): the caller writes
    /// them in the order `JSONEncoder`'s `.sortedKeys` gives.
    @inlinable public mutating func dynamicKey(_ k: String) {
        separate()
        string(k)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts an element of the innermost array (writes the comma).
    @inlinable public mutating func element() { separate() }

    @usableFromInline mutating func separate() {
        if open[open.count - 1].hasMember { bytes.append(UInt8(ascii: ",")) }
        open[open.count - 1].hasMember = true
    }

    /// The order `.sortedKeys` gives a dictionary's keys: ascending UTF-8 bytes.
    public static func sortedKeyOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    @usableFromInline static func precedes(_ a: StaticString, _ b: StaticString) -> Bool {
        a.withUTF8Buffer { x in b.withUTF8Buffer { y in x.lexicographicallyPrecedes(y) } }
    }

    // MARK: Scalars

    @inlinable public mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            for (i, b) in utf8.enumerated()
            where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || (escapingSlashes && b == UInt8(ascii: "/")) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                escape(b)
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @usableFromInline mutating func escape(_ b: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(b)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 15)]])
        }
    }

    @inlinable public mutating func int<I: BinaryInteger>(_ v: I) { bytes.append(contentsOf: String(v).utf8) }

    /// `description` without a trailing `.0`, as `JSONEncoder` writes a finite `Double`.
    /// A NaN or infinity (which `JSONEncoder` refuses to encode) is written as `null`: no value.
    @inlinable public mutating func double(_ v: Double) {
        guard v.isFinite else { bytes.append(contentsOf: "null".utf8); return }
        var d = v.description
        if d.hasSuffix(".0") { d.removeLast(2) }
        bytes.append(contentsOf: d.utf8)
    }

    @inlinable public mutating func bool(_ v: Bool) { bytes.append(contentsOf: (v ? "true" : "false").utf8) }

    /// ISO 8601, UTC, whole seconds (fractions dropped), as `.iso8601` writes a `Date`.
    @inlinable public mutating func date(_ v: Date) { string(v.formatted(.iso8601)) }

    /// Any `Encodable` value through `JSONEncoder` with the same options (for rare, large parts).
    @inlinable public mutating func encodable<T: Encodable>(_ v: T) {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        if let data = try? e.encode(v) { bytes.append(contentsOf: data) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// An array of `items`, each written by `write`.
    @inlinable public mutating func array<T>(_ items: [T], _ write: (T, inout JSONText) -> Void) {
        beginArray()
        for item in items {
            element()
            write(item, &self)
        }
        endArray()
    }

    // MARK: Members

    @inlinable public mutating func field(_ k: StaticString, _ v: String) { key(k); string(v) }
    @inlinable public mutating func field(_ k: StaticString, _ v: String?) { if let v { field(k, v) } }
    @inlinable public mutating func field<I: BinaryInteger>(_ k: StaticString, _ v: I) { key(k); int(v) }
    @inlinable public mutating func field<I: BinaryInteger>(_ k: StaticString, _ v: I?) { if let v { field(k, v) } }
    @inlinable public mutating func field(_ k: StaticString, _ v: Double) { key(k); double(v) }
    @inlinable public mutating func field(_ k: StaticString, _ v: Double?) { if let v { field(k, v) } }
    @inlinable public mutating func field(_ k: StaticString, _ v: Bool) { key(k); bool(v) }
    @inlinable public mutating func field(_ k: StaticString, _ v: [String]) {
        key(k)
        beginArray()
        for s in v { element(); string(s) }
        endArray()
    }
    @inlinable public mutating func field(_ k: StaticString, _ v: [String]?) { if let v { field(k, v) } }
    /// An ID as its lowercase hex (what `ContentID`'s `Codable` writes).
    @inlinable public mutating func field(_ k: StaticString, _ v: ContentID) { field(k, v.hex) }
    @inlinable public mutating func field(_ k: StaticString, _ v: ContentID?) { if let v { field(k, v.hex) } }
    /// A vocabulary value as its raw string.
    @inlinable public mutating func field<R: RawRepresentable>(_ k: StaticString, _ v: R) where R.RawValue == String { field(k, v.rawValue) }
    @inlinable public mutating func field<R: RawRepresentable>(_ k: StaticString, _ v: R?) where R.RawValue == String { if let v { field(k, v.rawValue) } }
}
