/// One directory entry's name as the file system holds it: bytes (anything but `/` and NUL),
/// not necessarily UTF-8. Names are compared and sorted by their bytes, so two names that
/// Unicode would call equal (NFC and NFD) stay two names.
///
/// **Text form** (`text`, `init?(text:)`), used wherever a name is printed or written to JSON:
/// reversible, and the name itself whenever it is valid UTF-8 without a backslash escape in it.
/// - each byte that is not part of valid UTF-8 is written `\xHH` (two lowercase hex digits);
/// - a backslash is written `\\` when the next written character is `\` or `x` (so that it
///   cannot be read as the start of an escape), and as itself otherwise;
/// - everything else (valid UTF-8, control characters included) is itself.
/// Reading: `\\` is one backslash, `\x` and two hex digits one byte, any other `\` itself.
/// `a\b` stays `a\b`; the Latin-1 name `caf\xe9` (bytes 63 61 66 E9) is `caf\xe9`; a UTF-8 name
/// spelled `caf\xe9` (backslash, x, e, 9) is `caf\\xe9`.
public struct FileName: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// A name from its bytes; nil when empty or holding `/` or NUL (not one entry's name).
    public init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, !bytes.contains(0x2f), !bytes.contains(0) else { return nil }
        self.bytes = bytes
    }

    /// The name spelled `text` (its UTF-8), nil when empty or holding `/` or NUL.
    public init?(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// Parses the text form back to the bytes (see the type's documentation).
    public init?(text: String) {
        guard let b = PathText.decode(text) else { return nil }
        self.init(bytes: b)
    }

    /// The reversible text form.
    public var text: String { PathText.encode(bytes) }
    public var description: String { text }

    /// The name as UTF-8 text, when it is valid UTF-8.
    public var utf8String: String? { PathText.validUTF8(bytes) }
    public var isValidUTF8: Bool { utf8String != nil }

    /// `.` and `..`: never real entries of a listing.
    public var isDotOrDotDot: Bool { bytes == [0x2e] || bytes == [0x2e, 0x2e] }

    public static func < (a: FileName, b: FileName) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

/// A path relative to some directory, as components (each a `FileName`): how the walk names
/// what it found under a capture folder (`evidence/ring/frame_0001.jpg`). Text form: the
/// components' text forms joined by `/`.
public struct RelativePath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let components: [FileName]

    public init(_ components: [FileName]) { self.components = components }

    /// Parses `a/b/c` (text forms); nil for an empty path, an empty component, `.`, `..`, or
    /// a leading `/`.
    public init?(text: String) {
        guard !text.isEmpty, !text.hasPrefix("/") else { return nil }
        var out: [FileName] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: false) {
            guard let n = FileName(text: String(part)), !n.isDotOrDotDot else { return nil }
            out.append(n)
        }
        components = out
    }

    public var text: String { components.map(\.text).joined(separator: "/") }
    public var description: String { text }
    public var name: FileName? { components.last }
    public var depth: Int { components.count }
    public var parent: RelativePath { RelativePath(Array(components.dropLast())) }
    public func appending(_ name: FileName) -> RelativePath { RelativePath(components + [name]) }
    /// Whether this path is `other` or lies under it.
    public func hasPrefix(_ other: RelativePath) -> Bool { components.starts(with: other.components) }

    /// Bytewise by components (`a/b` before `a.b`, as a walk visits them).
    public static func < (a: RelativePath, b: RelativePath) -> Bool {
        a.components.lexicographicallyPrecedes(b.components)
    }
}

/// The reversible text form of file-name bytes (documented at `FileName`).
public enum PathText {
    static let backslash: UInt8 = 0x5c
    static let x: UInt8 = 0x78

    /// The bytes as text: valid UTF-8 kept, other bytes `\xHH`, a backslash doubled when the
    /// next written character is `\` or `x`.
    public static func encode(_ bytes: [UInt8]) -> String {
        // Fast path: valid UTF-8 with no backslash is itself.
        if !bytes.contains(backslash), let s = validUTF8(bytes) { return s }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        let tokens = tokenize(bytes)
        for (k, t) in tokens.enumerated() {
            switch t {
            case .invalid(let b):
                out += [backslash, x, hexDigit(b >> 4), hexDigit(b & 0x0f)]
            case .valid(let range):
                for i in range {
                    let b = bytes[i]
                    if b == backslash {
                        // The next written character: the next byte of this run, else the next token's first.
                        let next: UInt8? = i + 1 < range.upperBound ? bytes[i + 1]
                            : (k + 1 < tokens.count ? tokens[k + 1].firstWritten(bytes) : nil)
                        out.append(backslash)
                        if next == backslash || next == x { out.append(backslash) }
                    } else {
                        out.append(b)
                    }
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The inverse of `encode`; nil never (every text decodes), kept optional for callers.
    public static func decode(_ text: String) -> [UInt8]? {
        let u = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(u.count)
        var i = 0
        while i < u.count {
            if u[i] == backslash, i + 1 < u.count {
                if u[i + 1] == backslash { out.append(backslash); i += 2; continue }
                if u[i + 1] == x, i + 3 < u.count, let h = hexValue(u[i + 2]), let l = hexValue(u[i + 3]) {
                    out.append(h << 4 | l); i += 4; continue
                }
            }
            out.append(u[i])
            i += 1
        }
        return out
    }

    /// The bytes as a `String` when they are valid UTF-8 (no replacement), else nil.
    public static func validUTF8(_ bytes: [UInt8]) -> String? {
        var it = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue: continue
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    enum Token {
        case valid(Range<Int>)
        case invalid(UInt8)

        func firstWritten(_ bytes: [UInt8]) -> UInt8 {
            switch self {
            case .valid(let r): bytes[r.lowerBound]
            case .invalid: PathText.backslash
            }
        }
    }

    /// Splits bytes into runs of valid UTF-8 and single invalid bytes.
    static func tokenize(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var runStart = 0
        var i = 0
        while i < bytes.count {
            let n = scalarLength(bytes, at: i)
            if n > 0 { i += n; continue }
            if runStart < i { tokens.append(.valid(runStart..<i)) }
            tokens.append(.invalid(bytes[i]))
            i += 1
            runStart = i
        }
        if runStart < bytes.count { tokens.append(.valid(runStart..<bytes.count)) }
        return tokens
    }

    /// Length of the valid UTF-8 scalar at `i` (1…4), or 0 when the byte starts none.
    static func scalarLength(_ b: [UInt8], at i: Int) -> Int {
        let c = b[i]
        func cont(_ k: Int) -> Bool { i + k < b.count && b[i + k] & 0xc0 == 0x80 }
        switch c {
        case 0x00...0x7f: return 1
        case 0xc2...0xdf: return cont(1) ? 2 : 0
        case 0xe0:
            return cont(1) && b[i + 1] >= 0xa0 && cont(2) ? 3 : 0
        case 0xed:
            return cont(1) && b[i + 1] < 0xa0 && cont(2) ? 3 : 0   // no UTF-16 surrogates
        case 0xe1...0xef:
            return cont(1) && cont(2) ? 3 : 0
        case 0xf0:
            return cont(1) && b[i + 1] >= 0x90 && cont(2) && cont(3) ? 4 : 0
        case 0xf1...0xf3:
            return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xf4:
            return cont(1) && b[i + 1] < 0x90 && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }

    static func hexDigit(_ n: UInt8) -> UInt8 { n < 10 ? 0x30 + n : 0x57 + n }
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x57
        case 0x41...0x46: c - 0x37
        default: nil
        }
    }
}
