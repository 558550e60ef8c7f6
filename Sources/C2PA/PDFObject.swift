/// A PDF object (ISO 32000-1 §7.3), as the PDF reader needs it: no object is evaluated, a
/// stream keeps only where its raw (still encoded) content lies.
indirect enum PDFObject: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A real number, kept as written.
    case real(String)
    case name(String)
    case string([UInt8])
    case array([PDFObject])
    case dictionary([String: PDFObject])
    case reference(number: Int, generation: Int)
    /// A stream: its dictionary and the file (or decoded object-stream) range of its raw content.
    case stream([String: PDFObject], content: Range<Int64>)

    var dictionaryValue: [String: PDFObject]? {
        switch self {
        case .dictionary(let d), .stream(let d, _): d
        default: nil
        }
    }

    var integerValue: Int64? { if case .integer(let v) = self { v } else { nil } }
    var nameValue: String? { if case .name(let v) = self { v } else { nil } }
    var arrayValue: [PDFObject]? { if case .array(let v) = self { v } else { nil } }

    /// The object written back as PDF syntax (the test writer re-emits a catalog with `/AF`).
    var encoded: [UInt8] {
        switch self {
        case .null: return Array("null".utf8)
        case .bool(let b): return Array((b ? "true" : "false").utf8)
        case .integer(let v): return Array(String(v).utf8)
        case .real(let s): return Array(s.utf8)
        case .name(let n): return [UInt8(ascii: "/")] + PDFObject.escapedName(n)
        case .string(let b):
            return [UInt8(ascii: "<")] + b.flatMap { Array(PDFObject.hex($0).utf8) } + [UInt8(ascii: ">")]
        case .array(let a):
            return [UInt8(ascii: "[")] + a.map(\.encoded).joined(separator: [0x20]) + [UInt8(ascii: "]")]
        case .dictionary(let d), .stream(let d, _):
            var out = Array("<<".utf8)
            for k in d.keys.sorted() { out += PDFObject.name(k).encoded + [0x20] + d[k]!.encoded + [0x20] }
            return out + Array(">>".utf8)
        case .reference(let n, let g): return Array("\(n) \(g) R".utf8)
        }
    }

    static func hex(_ b: UInt8) -> String {
        let d = Array("0123456789ABCDEF")
        return String([d[Int(b >> 4)], d[Int(b & 0xF)]])
    }

    /// A name's bytes with delimiters, white space, `#` and non-printing bytes as `#xx`.
    static func escapedName(_ n: String) -> [UInt8] {
        Array(n.utf8).flatMap { b -> [UInt8] in
            let plain = b > 0x20 && b < 0x7F && !PDFParser<MemoryByteSource>.isDelimiter(b) && b != UInt8(ascii: "#")
            return plain ? [b] : Array("#\(hex(b))".utf8)
        }
    }
}
