/// PDF syntax (ISO 32000-1 §7.2–7.3) read from a byte source through a window: white space and
/// comments, numbers, names (`#xx` escapes), literal and hexadecimal strings, arrays,
/// dictionaries, indirect references, and indirect objects with their streams. Bounded: arrays
/// and dictionaries nest at most 64 deep (`depthExceeded`), a string or name is at most 1 MiB,
/// and any syntax that does not hold is `badPDF` at its offset.
struct PDFParser<Source: ByteSource> {
    static var maximumDepth: Int { 64 }
    static var maximumToken: Int { 1 << 20 }

    var reader: WindowReader<Source>
    var at: Int64

    init(_ source: Source, at: Int64 = 0) {
        reader = WindowReader(source)
        self.at = at
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0 || b == 9 || b == 10 || b == 12 || b == 13 || b == 32 }
    static func isDelimiter(_ b: UInt8) -> Bool { Array("()<>[]{}/%".utf8).contains(b) }
    static func isRegular(_ b: UInt8) -> Bool { !isSpace(b) && !isDelimiter(b) }

    mutating func peek(_ offset: Int64 = 0) throws(ContainerError) -> UInt8? { try reader.byte(at + offset) }

    /// Skips white space and comments.
    mutating func skipSpace() throws(ContainerError) {
        while let b = try peek() {
            if Self.isSpace(b) { at += 1; continue }
            if b == UInt8(ascii: "%") {
                while let c = try peek(), c != 10, c != 13 { at += 1 }
                continue
            }
            return
        }
    }

    /// A keyword or number token (regular characters), without consuming it when `peekOnly`.
    mutating func token() throws(ContainerError) -> String {
        try skipSpace()
        let start = at
        while let b = try peek(), Self.isRegular(b) {
            at += 1
            guard at - start <= 64 else { throw .badPDF(offset: start) }
        }
        return String(decoding: try reader.source.containerBytes(at: start, count: Int(at - start)), as: UTF8.self)
    }

    /// Consumes `keyword` (after white space) or throws.
    mutating func expect(_ keyword: String) throws(ContainerError) {
        let start = at
        guard try token() == keyword else { throw .badPDF(offset: start) }
    }

    mutating func integer() throws(ContainerError) -> Int64 {
        let start = at
        guard let v = Int64(try token()) else { throw .badPDF(offset: start) }
        return v
    }

    /// One direct object; `n g R` is a reference.
    mutating func object(depth: Int = 0) throws(ContainerError) -> PDFObject {
        guard depth <= Self.maximumDepth else { throw .depthExceeded(offset: at) }
        try skipSpace()
        let start = at
        guard let b = try peek() else { throw .badPDF(offset: at) }
        switch b {
        case UInt8(ascii: "/"): at += 1; return .name(try name())
        case UInt8(ascii: "("): at += 1; return .string(try literalString())
        case UInt8(ascii: "["):
            at += 1
            var items: [PDFObject] = []
            while true {
                try skipSpace()
                if try peek() == UInt8(ascii: "]") { at += 1; return .array(items) }
                items.append(try object(depth: depth + 1))
                guard items.count <= 1 << 20 else { throw .tooManyParts(offset: start) }
            }
        case UInt8(ascii: "<"):
            if try peek(1) == UInt8(ascii: "<") {
                at += 2
                return .dictionary(try dictionaryBody(depth: depth))
            }
            at += 1
            return .string(try hexString())
        default:
            let t = try token()
            switch t {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            case "": throw .badPDF(offset: start)
            default: break
            }
            guard let n = Int64(t) else {
                guard t.allSatisfy({ "+-.0123456789".contains($0) }), t.contains(where: \.isNumber) else { throw .badPDF(offset: start) }
                return .real(t)
            }
            // `n g R`?
            let save = at
            if n >= 0, n <= Int64(Int32.max), let g = Int64(try token()), g >= 0, g <= 65_535, try token() == "R" {
                return .reference(number: Int(n), generation: Int(g))
            }
            at = save
            return .integer(n)
        }
    }

    /// The entries of a dictionary after its `<<`, through `>>`.
    mutating func dictionaryBody(depth: Int) throws(ContainerError) -> [String: PDFObject] {
        var d: [String: PDFObject] = [:]
        while true {
            try skipSpace()
            let keyAt = at
            if try reader.matches(Array(">>".utf8), at: at) { at += 2; return d }
            guard try peek() == UInt8(ascii: "/") else { throw .badPDF(offset: keyAt) }
            at += 1
            let key = try name()
            d[key] = try object(depth: depth + 1)
            guard d.count <= 1 << 16 else { throw .tooManyParts(offset: keyAt) }
        }
    }

    /// A name's characters after its `/`, `#xx` decoded.
    mutating func name() throws(ContainerError) -> String {
        let start = at
        var out: [UInt8] = []
        while let b = try peek(), Self.isRegular(b) {
            at += 1
            if b == UInt8(ascii: "#") {
                guard let h = try peek(), let l = try peek(1), let v = hexValue(h, l) else { throw .badPDF(offset: at) }
                out.append(v)
                at += 2
            } else {
                out.append(b)
            }
            guard out.count <= Self.maximumToken else { throw .badPDF(offset: start) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    func hexValue(_ h: UInt8, _ l: UInt8) -> UInt8? {
        func v(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x37
            case 0x61...0x66: c - 0x57
            default: nil
            }
        }
        guard let a = v(h), let b = v(l) else { return nil }
        return a << 4 | b
    }

    /// A literal string's bytes after its `(`, through the balancing `)`.
    mutating func literalString() throws(ContainerError) -> [UInt8] {
        let start = at
        var out: [UInt8] = []
        var nesting = 0
        while true {
            guard let b = try peek() else { throw .badPDF(offset: start) }
            guard out.count <= Self.maximumToken else { throw .badPDF(offset: start) }
            at += 1
            switch b {
            case UInt8(ascii: "("): nesting += 1; out.append(b)
            case UInt8(ascii: ")"):
                if nesting == 0 { return out }
                nesting -= 1
                out.append(b)
            case UInt8(ascii: "\\"):
                guard let e = try peek() else { throw .badPDF(offset: start) }
                at += 1
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case 13: if try peek() == 10 { at += 1 } // line continuation
                case 10: break
                case 0x30...0x37:
                    var v = Int(e - 0x30)
                    for _ in 0..<2 {
                        guard let d = try peek(), (0x30...0x37).contains(d) else { break }
                        v = v * 8 + Int(d - 0x30)
                        at += 1
                    }
                    out.append(UInt8(v & 0xFF))
                default: out.append(e)
                }
            default: out.append(b)
            }
        }
    }

    /// A hexadecimal string's bytes after its `<`, through `>` (white space ignored, an odd
    /// final digit followed by 0).
    mutating func hexString() throws(ContainerError) -> [UInt8] {
        let start = at
        var digits: [UInt8] = []
        while true {
            guard let b = try peek() else { throw .badPDF(offset: start) }
            at += 1
            if b == UInt8(ascii: ">") { break }
            if Self.isSpace(b) { continue }
            guard hexValue(b, 0x30) != nil else { throw .badPDF(offset: at - 1) }
            digits.append(b)
            guard digits.count <= 2 * Self.maximumToken else { throw .badPDF(offset: start) }
        }
        if digits.count % 2 == 1 { digits.append(0x30) }
        return stride(from: 0, to: digits.count, by: 2).map { hexValue(digits[$0], digits[$0 + 1])! }
    }

    /// `n g obj` at the current position: the object number and generation.
    mutating func objectHeader() throws(ContainerError) -> (number: Int, generation: Int) {
        let start = at
        let n = try integer(), g = try integer()
        guard n >= 0, n <= Int64(Int32.max), g >= 0, g <= 65_535 else { throw .badPDF(offset: start) }
        try expect("obj")
        return (Int(n), Int(g))
    }

    /// After a stream dictionary: `stream` EOL, then where the content starts. The caller knows
    /// its length (`/Length`, possibly an indirect object) and calls `streamEnd`.
    mutating func streamStart() throws(ContainerError) -> Int64? {
        try skipSpace()
        guard try reader.matches(Array("stream".utf8), at: at) else { return nil }
        at += 6
        var eol = false
        if try peek() == 13 { at += 1; eol = true }
        if try peek() == 10 { at += 1; eol = true }
        guard eol else { throw .badPDF(offset: at) }
        return at
    }

    /// Checks `endstream` after `length` content bytes from `start`.
    mutating func streamEnd(start: Int64, length: Int64) throws(ContainerError) {
        guard length >= 0, start + length <= reader.count else { throw .badPDF(offset: start) }
        at = start + length
        try expect("endstream")
    }
}
