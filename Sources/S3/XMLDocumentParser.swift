/// A small strict XML parser for S3's answers (bounded, no DTDs, no entities but the five
/// predefined and character references). What S3 sends is a tree of elements with text; anything
/// else — a DOCTYPE (no external entities ever), CDATA, a processing instruction after the prolog,
/// unbalanced tags, bytes after the root element, nesting deeper than `maxDepth`, more than
/// `maxElements` elements — is `s3.response.malformed`. The caller bounds the input size.
public struct XMLDocumentParser {
    public static let maxDepth = 16
    public static let maxElements = 200_000

    private let bytes: [UInt8]
    private var i = 0
    private var elements = 0

    /// Parses a whole document; returns its root element.
    public static func parse(_ bytes: [UInt8]) throws(S3Error) -> XMLElement {
        var p = XMLDocumentParser(bytes: bytes)
        return try p.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func fail(_ why: String) -> S3Error {
        S3Error(.malformedResponse, "XML at byte \(i): \(why)")
    }

    private mutating func document() throws(S3Error) -> XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        skipSpace()
        if has("<?xml") {
            guard let end = find(Array("?>".utf8)) else { throw fail("unterminated XML declaration") }
            i = end + 2
        }
        try skipMisc()
        guard has("<") else { throw fail("no root element") }
        let root = try element(depth: 1)
        try skipMisc()
        guard i == bytes.count else { throw fail("bytes after the root element") }
        return root
    }

    /// Whitespace and comments (between elements, before and after the root).
    private mutating func skipMisc() throws(S3Error) {
        while true {
            skipSpace()
            if has("<!--") {
                guard let end = find(Array("-->".utf8)) else { throw fail("unterminated comment") }
                i = end + 3
            } else if has("<!") || has("<?") {
                throw fail("DOCTYPE, CDATA and processing instructions are not accepted")
            } else { return }
        }
    }

    private mutating func element(depth: Int) throws(S3Error) -> XMLElement {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        elements += 1
        guard elements <= Self.maxElements else { throw fail("more than \(Self.maxElements) elements") }
        i += 1   // "<"
        let name = try self.name()
        // Attributes: name="value" pairs, read and dropped.
        while true {
            let spaced = skipSpace()
            if has("/>") { i += 2; return XMLElement(name: name) }
            if has(">") { i += 1; break }
            guard spaced else { throw fail("malformed tag <\(name)>") }
            _ = try self.name()
            skipSpace()
            guard has("=") else { throw fail("attribute without value") }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == 34 || bytes[i] == 39 else { throw fail("unquoted attribute") }
            let quote = bytes[i]
            guard let end = bytes[(i + 1)...].firstIndex(of: quote) else { throw fail("unterminated attribute") }
            _ = try decode(bytes[(i + 1)..<end])
            i = end + 1
        }
        var node = XMLElement(name: name)
        var text: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("<\(name)> is not closed") }
            if has("</") {
                i += 2
                guard try self.name() == name else { throw fail("</…> does not close <\(name)>") }
                skipSpace()
                guard has(">") else { throw fail("malformed end tag") }
                i += 1
                node.text = try decode(text[...])
                return node
            } else if has("<!--") {
                guard let end = find(Array("-->".utf8)) else { throw fail("unterminated comment") }
                i = end + 3
            } else if has("<!") || has("<?") {
                throw fail("CDATA and processing instructions are not accepted")
            } else if bytes[i] == 60 {
                node.children.append(try element(depth: depth + 1))
            } else {
                text.append(bytes[i])
                i += 1
            }
        }
    }

    private mutating func name() throws(S3Error) -> String {
        let start = i
        while i < bytes.count, isNameByte(bytes[i], first: i == start) { i += 1 }
        guard i > start else { throw fail("expected a name") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private func isNameByte(_ c: UInt8, first: Bool) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: c >= 0x80
        }
    }

    /// Text with `&amp; &lt; &gt; &quot; &apos; &#N; &#xH;` decoded; any other `&` is an error,
    /// as is a bare `<` (it never reaches here) or invalid UTF-8.
    private func decode(_ raw: ArraySlice<UInt8>) throws(S3Error) -> String {
        guard raw.contains(38) else { return try utf8(raw) }
        var out: [UInt8] = []
        var j = raw.startIndex
        while j < raw.endIndex {
            guard raw[j] == 38 else { out.append(raw[j]); j += 1; continue }
            guard let semi = raw[j...].prefix(12).firstIndex(of: 59) else { throw fail("unterminated entity") }
            let entity = String(decoding: raw[(j + 1)..<semi], as: UTF8.self)
            switch entity {
            case "amp": out.append(38)
            case "lt": out.append(60)
            case "gt": out.append(62)
            case "quot": out.append(34)
            case "apos": out.append(39)
            default:
                let value: UInt32?
                if entity.hasPrefix("#x") { value = UInt32(entity.dropFirst(2), radix: 16) }
                else if entity.hasPrefix("#") { value = UInt32(entity.dropFirst(1), radix: 10) }
                else { value = nil }
                guard let v = value, v != 0, let scalar = Unicode.Scalar(v) else { throw fail("unknown entity &\(entity);") }
                out += Array(String(Character(scalar)).utf8)
            }
            j = semi + 1
        }
        return try utf8(out[...])
    }

    private func utf8(_ raw: ArraySlice<UInt8>) throws(S3Error) -> String {
        guard let s = String(validating: raw, as: UTF8.self) else { throw fail("text is not UTF-8") }
        return s
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = i
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        return i > start
    }

    private func has(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return literal.withUTF8Buffer { lit in (0..<n).allSatisfy { bytes[i + $0] == lit[$0] } }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var j = i
        while j + needle.count <= bytes.count {
            if bytes[j] == needle[0], Array(bytes[j..<(j + needle.count)]) == needle { return j }
            j += 1
        }
        return nil
    }
}
