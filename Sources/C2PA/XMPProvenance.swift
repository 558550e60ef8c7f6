import Ground

/// The XMP packet of a JPEG or ISO BMFF file and the `dcterms:provenance` value in it: where an
/// asset with no embedded manifest store says its manifest lives (C2PA 11.5, "Embedding a
/// Reference to an external Manifest"). Read only to report the reference; never fetched.
///
///     JPEG: APP1  "http://ns.adobe.com/xap/1.0/" NUL  <XMP packet, UTF-8>
///     BMFF: top-level uuid(usertype be7acfcb-97a9-42e8-9c71-999491e3afac)  <XMP packet>
///
/// As c2pa-rs reads them: the first APP1 whose contents start with the namespace and whose rest
/// is UTF-8; the last top-level XMP `uuid` box whose body is UTF-8. The value is the
/// `dcterms:provenance` attribute of an `rdf:Description` start tag, or the text of a
/// `dcterms:provenance` element, whichever comes first. The markup is scanned strictly: an
/// unterminated tag, comment or quoted value, a DOCTYPE, or an unknown entity makes the packet
/// unreadable (nil), never guessed at.
public enum XMPProvenance {
    public static let jpegNamespace = Array("http://ns.adobe.com/xap/1.0/".utf8)
    public static let bmffUserType: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8,
                                               0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]
    /// Largest XMP packet read from a BMFF box (a JPEG segment holds at most 65,533 bytes).
    public static let maximumPacket = 1 << 20
    /// Longest provenance value reported.
    public static let maximumValue = 2048

    /// The XMP packet of a JPEG, nil when there is none. Only segments before the first scan.
    public static func packet(inJPEG source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        for s in try JPEGContainer.segments(of: source) where s.marker == 0xE1 {
            let n = jpegNamespace.count + 1 // the namespace and its NUL (c2pa-rs skips any one byte)
            guard s.contentRange.count > n else { continue }
            let head: [UInt8]
            do { head = try source.readExactly(at: s.contentRange.lowerBound, count: jpegNamespace.count) } catch { throw .io(error) }
            guard head == jpegNamespace else { continue }
            let body: [UInt8]
            do { body = try source.readExactly(at: s.contentRange.lowerBound + Int64(n), count: Int(s.contentRange.count) - n) }
            catch { throw .io(error) }
            if String(validating: body, as: UTF8.self) != nil { return body }
        }
        return nil
    }

    /// The XMP packet of a BMFF file (its top-level boxes as parsed), nil when there is none.
    public static func packet(inBMFF source: some ByteSource, boxes: [BMFFBox]) throws(ContainerError) -> [UInt8]? {
        var found: [UInt8]?
        for b in boxes where b.type == "uuid" && b.userType == bmffUserType {
            let body = b.bodyRange
            guard body.count <= Int64(maximumPacket) else { continue }
            let bytes: [UInt8]
            do { bytes = try source.readExactly(at: body.lowerBound, count: Int(body.count)) } catch { throw .io(error) }
            if String(validating: bytes, as: UTF8.self) != nil { found = bytes }
        }
        return found
    }

    /// The `dcterms:provenance` value of an XMP packet (entities decoded), nil when absent, too
    /// long, holding a control character, or when the markup before it cannot be read.
    public static func provenance(in packet: [UInt8]) -> String? {
        guard packet.count <= maximumPacket else { return nil }
        var scanner = Scanner(bytes: packet)
        guard let raw = scanner.findProvenance(), raw.count <= maximumValue,
              let decoded = decodeEntities(raw), !decoded.contains(where: { ($0 < 0x20 && !Scanner.isSpace($0)) || $0 == 0x7F }),
              let s = String(validating: decoded, as: UTF8.self) else { return nil }
        let trimmed = trimmingSpaces(s)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `s` without leading and trailing spaces, tabs and line breaks.
    static func trimmingSpaces(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// `value` when it is an `http` or `https` URL with a host (the only references c2pa-rs
    /// treats as a remote manifest), nil otherwise.
    public static func remoteURL(_ value: String) -> String? {
        let lower = value.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = value.dropFirst(8) } else if lower.hasPrefix("http://") { rest = value.dropFirst(7) } else {
            return nil
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !value.contains(where: \.isWhitespace) else { return nil }
        return value
    }

    /// A minimal XMP packet whose `rdf:Description` carries `dcterms:provenance` = `value`
    /// (escaped), as c2pa-rs writes a remote reference into a file that had no XMP.
    public static func minimalPacket(provenance value: String) -> [UInt8] {
        var escaped = ""
        for c in value {
            switch c {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(c)
            }
        }
        let text = #"<?xpacket begin="\#u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>"#
            + #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + #"<rdf:Description rdf:about="" xmlns:dcterms="http://purl.org/dc/terms/" dcterms:provenance=""#
            + escaped + #""/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#
        return Array(text.utf8)
    }

    /// XML's five named entities and numeric character references; nil for any other `&`.
    static func decodeEntities(_ b: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = b.startIndex
        while i < b.endIndex {
            guard b[i] == UInt8(ascii: "&") else { out.append(b[i]); i += 1; continue }
            guard let semi = b[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
            let name = String(decoding: b[(i + 1)..<semi], as: UTF8.self)
            switch name {
            case "amp": out.append(UInt8(ascii: "&"))
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                guard name.hasPrefix("#") else { return nil }
                let digits = name.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                guard let value, let scalar = Unicode.Scalar(value) else { return nil }
                out += Array(String(Character(scalar)).utf8)
            }
            i = semi + 1
        }
        return out
    }

    /// A forward-only scan over XMP markup.
    struct Scanner {
        let bytes: [UInt8]
        var at = 0

        static let description = Array("rdf:Description".utf8)
        static let key = Array("dcterms:provenance".utf8)

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// The raw provenance value, nil when absent or when the markup is malformed.
        mutating func findProvenance() -> ArraySlice<UInt8>? {
            while let lt = bytes[at...].firstIndex(of: UInt8(ascii: "<")) {
                at = lt + 1
                if starts("?") {
                    guard skip(past: "?>") else { return nil }
                } else if starts("!--") {
                    guard skip(past: "-->") else { return nil }
                } else if starts("![CDATA[") {
                    guard skip(past: "]]>") else { return nil }
                } else if starts("!") {
                    return nil // DOCTYPE and other declarations: not in XMP
                } else if starts("/") {
                    guard skip(past: ">") else { return nil }
                } else {
                    guard let tag = startTag() else { return nil }
                    if tag.name.elementsEqual(Self.description), let v = tag.attributes.first(where: { $0.name.elementsEqual(Self.key) }) {
                        return v.value
                    }
                    if tag.name.elementsEqual(Self.key), !tag.selfClosing {
                        guard let end = bytes[at...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
                        let text = bytes[at..<end]
                        at = end
                        guard starts("</" + "dcterms:provenance"), skip(past: ">") else { return nil }
                        return text
                    }
                }
            }
            return nil
        }

        func starts(_ s: String) -> Bool { bytes[at...].starts(with: s.utf8) }

        mutating func skip(past s: String) -> Bool {
            let needle = Array(s.utf8)
            var i = at
            while i + needle.count <= bytes.count {
                if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) {
                    at = i + needle.count
                    return true
                }
                i += 1
            }
            return false
        }

        struct Tag {
            var name: ArraySlice<UInt8>
            var attributes: [(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>)]
            var selfClosing: Bool
        }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        static func isNameByte(_ b: UInt8) -> Bool { !isSpace(b) && b != UInt8(ascii: "/") && b != UInt8(ascii: ">") && b != UInt8(ascii: "=") && b != UInt8(ascii: "<") && b != UInt8(ascii: "\"") && b != UInt8(ascii: "'") }

        /// A start tag from after its `<` to after its `>`; nil when malformed.
        mutating func startTag() -> Tag? {
            guard let name = readName() else { return nil }
            var attributes: [(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>)] = []
            while true {
                let hadSpace = skipSpaces()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ">") {
                    at += 1
                    return Tag(name: name, attributes: attributes, selfClosing: false)
                }
                if starts("/>") {
                    at += 2
                    return Tag(name: name, attributes: attributes, selfClosing: true)
                }
                guard hadSpace, let attr = readName() else { return nil }
                skipSpaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { return nil }
                at += 1
                skipSpaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { return nil }
                let quote = bytes[at]
                at += 1
                guard let close = bytes[at...].firstIndex(of: quote) else { return nil }
                let value = bytes[at..<close]
                guard !value.contains(UInt8(ascii: "<")) else { return nil }
                attributes.append((attr, value))
                at = close + 1
            }
        }

        mutating func readName() -> ArraySlice<UInt8>? {
            let start = at
            while at < bytes.count, Self.isNameByte(bytes[at]) { at += 1 }
            return at > start ? bytes[start..<at] : nil
        }

        @discardableResult
        mutating func skipSpaces() -> Bool {
            let start = at
            while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
            return at > start
        }
    }
}
