/// A bounded, streaming scan of XML markup over a byte source, for the SVG reader: element
/// starts and ends (names as written, `prefix:local`), text runs, processing instructions,
/// comments, CDATA sections and the DOCTYPE — the events quick-xml gives c2pa-rs's `svg_io.rs`.
/// No XML library and no entity expansion: nothing is fetched or expanded. It reads the source
/// through a 64 KiB window (constant memory), never trusts the markup:
/// - an unterminated tag, comment, CDATA section, processing instruction or DOCTYPE, an end tag
///   that does not close the open element, or a `<` that starts nothing is `badXML`;
/// - quoted attribute values may hold `>`; a DOCTYPE's internal subset (`[ … ]`) is skipped;
/// - elements nest at most `maximumDepth` deep (`depthExceeded`); a tag or name is at most
///   64 KiB (`badXML`);
/// - elements still open at the end are accepted (quick-xml does not track them either).
struct MarkupScanner<Source: ByteSource> {
    enum Event {
        case start(name: String, selfClosing: Bool)
        case end(name: String)
        /// A run of character data between markup: its file range.
        case text(Range<Int64>)
        /// A processing instruction `<?…?>`: its file range, delimiters included, and its body.
        case processingInstruction(Range<Int64>, body: [UInt8])
    }

    static var maximumDepth: Int { 512 }
    static var maximumTag: Int { 1 << 16 }

    let source: Source
    private var reader: WindowReader<Source>
    private(set) var at: Int64 = 0
    /// Names of the open elements, outermost first.
    private(set) var path: [String] = []

    init(_ source: Source) {
        self.source = source
        reader = WindowReader(source)
    }

    mutating func byte(_ i: Int64) throws(ContainerError) -> UInt8? { try reader.byte(i) }

    mutating func matches(_ s: [UInt8], at i: Int64) throws(ContainerError) -> Bool { try reader.matches(s, at: i) }

    /// The offset just past the first `terminator` at or after `from`, within `limit` bytes.
    mutating func find(_ terminator: [UInt8], from: Int64, limit: Int64 = .max) throws(ContainerError) -> Int64 {
        var i = from
        while i < source.count {
            guard i - from <= limit else { throw .badXML(offset: from) }
            if try byte(i) == terminator[0], try matches(terminator, at: i) { return i + Int64(terminator.count) }
            i += 1
        }
        throw .badXML(offset: from)
    }

    /// The next event, nil at the end of the source.
    mutating func next() throws(ContainerError) -> Event? {
        if at == 0, try matches([0xEF, 0xBB, 0xBF], at: 0) { at = 3 }
        guard let c = try byte(at) else { return nil }
        guard c == UInt8(ascii: "<") else {
            let start = at
            while let b = try byte(at), b != UInt8(ascii: "<") { at += 1 }
            return .text(start..<at)
        }
        let start = at
        switch try byte(at + 1) {
        case UInt8(ascii: "/"):
            let end = try find([UInt8(ascii: ">")], from: at + 2, limit: Int64(Self.maximumTag))
            let name = try text(at + 2, end - 1).trimmingSpaces
            at = end
            guard let open = path.last, open == name else { throw .badXML(offset: start) }
            path.removeLast()
            return .end(name: name)
        case UInt8(ascii: "?"):
            at = try find(Array("?>".utf8), from: at + 2)
            let n = Int(at - start - 4) // the body is handed over only when short (the XMP `xpacket` instructions are)
            return .processingInstruction(start..<at, body: n <= Self.maximumTag ? try source.containerBytes(at: start + 2, count: n) : [])
        case UInt8(ascii: "!"):
            if try matches(Array("<!--".utf8), at: at) {
                at = try find(Array("-->".utf8), from: at + 4)
            } else if try matches(Array("<![CDATA[".utf8), at: at) {
                at = try find(Array("]]>".utf8), from: at + 9)
            } else if try matches(Array("<!DOCTYPE".utf8), at: at) {
                at = try skipDeclaration(from: at + 9)
            } else {
                throw .badXML(offset: at)
            }
            return try next()
        case .some(let b) where !MarkupScanner.isSpace(b) && b != UInt8(ascii: ">"):
            let end = try tagEnd(from: at + 1)
            let selfClosing = try byte(end - 2) == UInt8(ascii: "/")
            var nameEnd = at + 1
            while let b = try byte(nameEnd), !MarkupScanner.isSpace(b), b != UInt8(ascii: "/"), b != UInt8(ascii: ">") { nameEnd += 1 }
            let name = try text(at + 1, nameEnd)
            at = end
            if !selfClosing {
                path.append(name)
                guard path.count <= Self.maximumDepth else { throw .depthExceeded(offset: start) }
            }
            return .start(name: name, selfClosing: selfClosing)
        default:
            throw .badXML(offset: at)
        }
    }

    /// The offset past the `>` ending a start tag, quoted values skipped.
    mutating func tagEnd(from: Int64) throws(ContainerError) -> Int64 {
        var i = from
        var quote: UInt8?
        while let b = try byte(i) {
            guard i - from <= Int64(Self.maximumTag) else { throw .badXML(offset: from) }
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "<") {
                throw .badXML(offset: from)
            } else if b == UInt8(ascii: ">") {
                return i + 1
            }
            i += 1
        }
        throw .badXML(offset: from)
    }

    /// The offset past a DOCTYPE's closing `>`: quoted literals and the `[ … ]` subset skipped.
    mutating func skipDeclaration(from: Int64) throws(ContainerError) -> Int64 {
        var i = from
        var quote: UInt8?
        var subset = 0
        while let b = try byte(i) {
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                subset += 1
            } else if b == UInt8(ascii: "]") {
                subset -= 1
            } else if b == UInt8(ascii: ">") && subset <= 0 {
                return i + 1
            }
            i += 1
        }
        throw .badXML(offset: from)
    }

    mutating func text(_ from: Int64, _ to: Int64) throws(ContainerError) -> String {
        guard to >= from, to - from <= Int64(Self.maximumTag) else { throw .badXML(offset: from) }
        return String(decoding: try source.containerBytes(at: from, count: Int(to - from)), as: UTF8.self)
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}

extension String {
    var trimmingSpaces: String {
        let u = Array(utf8)
        guard let f = u.firstIndex(where: { !MarkupScanner<MemoryByteSource>.isSpace($0) }),
              let l = u.lastIndex(where: { !MarkupScanner<MemoryByteSource>.isSpace($0) }) else { return "" }
        return String(decoding: u[f...l], as: UTF8.self)
    }
}
