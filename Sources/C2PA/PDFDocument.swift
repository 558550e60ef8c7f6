import Inflate

/// A PDF's cross-reference data and its objects, read lazily (ISO 32000-1 §7.5): `startxref` in
/// the last KiB, then each cross-reference section — a classic `xref` table or a
/// cross-reference stream (§7.5.8, `FlateDecode` with PNG predictors) — following `/Prev` and a
/// hybrid file's `/XRefStm`, newest entries first; objects are parsed where their entry says,
/// in the file or in an object stream (§7.5.7). Bounded: at most 64 sections (a repeated offset
/// is a `cycle`), 4 Mi entries, 32 reference hops, 64 MiB of decoded cross-reference or object
/// stream; every failure is `badPDF`, `cycle`, `tooManyParts` or `depthExceeded` at its offset.
struct PDFDocument<Source: ByteSource> {
    enum Entry: Equatable {
        case inFile(offset: Int64)
        case inStream(stream: Int, index: Int)
    }

    static var maximumSections: Int { 64 }
    static var maximumEntries: Int { 1 << 22 }
    static var maximumDecoded: Int { 64 << 20 }

    let source: Source
    private(set) var entries: [Int: Entry] = [:]
    /// Object numbers a newer section has listed (in use or free): older sections do not override them.
    private var listed: Set<Int> = []
    /// The trailer: each key from the newest section that has it.
    private(set) var trailer: [String: PDFObject] = [:]
    private var objectStreams: [Int: (bytes: [UInt8], offsets: [Int64])] = [:]
    /// The offset `startxref` gives (the newest cross-reference section).
    private(set) var startXref: Int64 = 0

    init(_ source: Source) throws(ContainerError) {
        self.source = source
        guard try source.containerPrefix(at: 0, count: 5) == Array("%PDF-".utf8) else { throw .unsupported }
        let tailLength = Int(min(1024, source.count))
        let tail = try source.containerBytes(at: source.count - Int64(tailLength), count: tailLength)
        let key = Array("startxref".utf8)
        guard let k = stride(from: tail.count - key.count, through: 0, by: -1).first(where: { tail[$0..<($0 + key.count)].elementsEqual(key) })
        else { throw .badPDF(offset: source.count) }
        var p = PDFParser(source, at: source.count - Int64(tailLength) + Int64(k + key.count))
        startXref = try p.integer()
        var next: Int64? = startXref
        var seen: Set<Int64> = []
        while let offset = next {
            guard seen.insert(offset).inserted else { throw .cycle(offset: offset) }
            guard seen.count <= Self.maximumSections else { throw .tooManyParts(offset: offset) }
            let t = try loadSection(at: offset)
            if let stm = t["XRefStm"]?.integerValue, !seen.contains(stm) {
                seen.insert(stm)
                _ = try loadSection(at: stm)
            }
            for (k, v) in t where trailer[k] == nil && k != "Prev" && k != "XRefStm" { trailer[k] = v }
            next = t["Prev"]?.integerValue
        }
    }

    /// One cross-reference section at `offset`; returns its trailer dictionary.
    private mutating func loadSection(at offset: Int64) throws(ContainerError) -> [String: PDFObject] {
        guard offset >= 0, offset < source.count else { throw .badPDF(offset: offset) }
        var p = PDFParser(source, at: offset)
        try p.skipSpace()
        if try p.reader.matches(Array("xref".utf8), at: p.at) {
            p.at += 4
            while true {
                try p.skipSpace()
                if try p.reader.matches(Array("trailer".utf8), at: p.at) {
                    p.at += 7
                    guard let t = try p.object().dictionaryValue else { throw .badPDF(offset: p.at) }
                    return t
                }
                let start = try p.integer(), count = try p.integer()
                guard start >= 0, count >= 0, start + count <= Int64(Self.maximumEntries) else { throw .tooManyParts(offset: p.at) }
                for i in 0..<Int(count) {
                    let at = p.at
                    let off = try p.integer()
                    _ = try p.integer()
                    let kind = try p.token()
                    guard kind == "n" || kind == "f" else { throw .badPDF(offset: at) }
                    note(Int(start) + i, kind == "n" ? .inFile(offset: off) : nil)
                }
                guard entries.count <= Self.maximumEntries else { throw .tooManyParts(offset: p.at) }
            }
        }
        // A cross-reference stream.
        _ = try p.objectHeader()
        guard case .dictionary(let d) = try p.object(), d["Type"]?.nameValue == "XRef",
              let start = try p.streamStart(), let length = d["Length"]?.integerValue else { throw .badPDF(offset: offset) }
        try p.streamEnd(start: start, length: length)
        let data = try decoded(d, content: start..<(start + length), in: source)
        guard let w = d["W"]?.arrayValue?.compactMap(\.integerValue), w.count == 3, w.allSatisfy({ (0...8).contains($0) }) else {
            throw .badPDF(offset: offset)
        }
        let size = d["Size"]?.integerValue ?? 0
        let index = d["Index"]?.arrayValue?.compactMap(\.integerValue) ?? [0, size]
        guard index.count % 2 == 0, w.reduce(0, +) > 0 else { throw .badPDF(offset: offset) }
        let row = Int(w.reduce(0, +))
        var at = 0
        for pair in stride(from: 0, to: index.count, by: 2) {
            let (first, count) = (index[pair], index[pair + 1])
            guard first >= 0, count >= 0, first + count <= Int64(Self.maximumEntries) else { throw .tooManyParts(offset: offset) }
            for i in 0..<Int(count) {
                guard at + row <= data.count else { throw .badPDF(offset: offset) }
                var fields: [Int64] = []
                var k = at
                for width in w {
                    fields.append(data[k..<(k + Int(width))].reduce(0) { $0 << 8 | Int64($1) })
                    k += Int(width)
                }
                let type = w[0] == 0 ? 1 : fields[0]
                switch type {
                case 1: note(Int(first) + i, .inFile(offset: fields[1]))
                case 2: note(Int(first) + i, .inStream(stream: Int(fields[1]), index: Int(fields[2])))
                default: note(Int(first) + i, nil)
                }
                at += row
            }
        }
        return d
    }

    private mutating func note(_ number: Int, _ entry: Entry?) {
        guard listed.insert(number).inserted else { return }
        if let entry { entries[number] = entry }
    }

    /// `object` with references followed (at most 32 hops).
    mutating func resolve(_ object: PDFObject?) throws(ContainerError) -> PDFObject? {
        var o = object
        var hops = 0
        while case .reference(let n, _) = o {
            hops += 1
            guard hops <= 32 else { throw .cycle(offset: 0) }
            o = try self.object(n)
        }
        return o
    }

    /// Indirect object `n`, nil when no entry lists it (a free or missing object reads as null).
    mutating func object(_ n: Int) throws(ContainerError) -> PDFObject? {
        switch entries[n] {
        case nil: return nil
        case .inFile(let offset):
            guard offset >= 0, offset < source.count else { throw .badPDF(offset: offset) }
            var p = PDFParser(source, at: offset)
            _ = try p.objectHeader()
            let o = try p.object()
            guard case .dictionary(let d) = o, let start = try p.streamStart() else { return o }
            var lengthObject = d["Length"]
            if case .reference(let ln, _) = lengthObject, ln != n { lengthObject = try resolve(lengthObject) }
            guard let length = lengthObject?.integerValue else { throw .badPDF(offset: offset) }
            try p.streamEnd(start: start, length: length)
            return .stream(d, content: start..<(start + length))
        case .inStream(let s, let index):
            if objectStreams[s] == nil { try loadObjectStream(s) }
            guard let os = objectStreams[s], index >= 0, index < os.offsets.count else { throw .badPDF(offset: 0) }
            var p = PDFParser(MemoryByteSource(os.bytes), at: os.offsets[index])
            return try p.object()
        }
    }

    private mutating func loadObjectStream(_ s: Int) throws(ContainerError) {
        guard case .inFile = entries[s], case .stream(let d, let content)? = try object(s), d["Type"]?.nameValue == "ObjStm",
              let n = d["N"]?.integerValue, let first = d["First"]?.integerValue, n >= 0, n <= 1 << 20, first >= 0 else {
            throw .badPDF(offset: 0)
        }
        let bytes = try decoded(d, content: content, in: source)
        guard first <= Int64(bytes.count) else { throw .badPDF(offset: content.lowerBound) }
        var p = PDFParser(MemoryByteSource(bytes))
        var offsets: [Int64] = []
        for _ in 0..<n {
            _ = try p.integer()
            offsets.append(first + (try p.integer()))
        }
        if objectStreams.count >= 64 { objectStreams.removeAll() }
        objectStreams[s] = (bytes, offsets)
    }

    /// A stream's content with its filters undone (`FlateDecode` with or without a PNG
    /// predictor; no filter). Any other filter is `badPDF`.
    func decoded(_ d: [String: PDFObject], content: Range<Int64>, in src: some ByteSource) throws(ContainerError) -> [UInt8] {
        guard content.count <= Int64(Self.maximumDecoded) else { throw .tooManyParts(offset: content.lowerBound) }
        var data = try src.containerBytes(at: content.lowerBound, count: Int(content.count))
        let filters: [PDFObject] = d["Filter"].map { $0.arrayValue ?? [$0] } ?? []
        let parms: [PDFObject?] = d["DecodeParms"].map { p in p.arrayValue.map { $0.map(Optional.some) } ?? [p] } ?? []
        for (i, f) in filters.enumerated() {
            guard ["FlateDecode", "Fl"].contains(f.nameValue ?? "") else { throw .badPDF(offset: content.lowerBound) }
            do { data = try Inflate.inflate(data, limit: Self.maximumDecoded) } catch { throw .badPDF(offset: content.lowerBound) }
            if let p = i < parms.count ? parms[i]?.dictionaryValue : nil {
                data = try PDFPredictor.undo(data, parameters: p, offset: content.lowerBound)
            }
        }
        return data
    }
}
