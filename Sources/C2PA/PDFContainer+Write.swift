extension PDFContainer {
    /// `pdf` (holding no store) with the store appended as an incremental update (ISO 32000-1
    /// §7.5.6): an embedded file stream (`/Type /EmbeddedFile /Subtype /application#2Fc2pa`, no
    /// filter), its file specification (`/AFRelationship /C2PA_Manifest`, `/EF /F`), the catalog
    /// again with that specification added to `/AF`, a cross-reference section and a trailer with
    /// `/Prev`. Returns the bytes and the range of the stream's content — what c2pa-rs excludes.
    public static func embed(_ store: [UInt8], into pdf: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(pdf)
        if case .found = try manifest(in: src) { throw .tooManyManifestStores }
        var doc = try PDFDocument(src)
        guard case .reference(let root, let rootGen)? = doc.trailer["Root"], var catalog = try doc.resolve(doc.trailer["Root"])?.dictionaryValue,
              let size = doc.trailer["Size"]?.integerValue, size > 0, size < Int64(Int32.max) - 2 else { throw .noInsertionPoint }
        let (streamNumber, specNumber) = (Int(size), Int(size) + 1)
        var af = try doc.resolve(catalog["AF"])?.arrayValue ?? []
        af.append(.reference(number: specNumber, generation: 0))
        catalog["AF"] = .array(af)
        var out = pdf
        if out.last != 10 { out.append(10) }
        var offsets: [(Int, Int, Int)] = [] // number, generation, offset
        offsets.append((streamNumber, 0, out.count))
        let streamDict = PDFObject.dictionary(["Length": .integer(Int64(store.count)), "Type": .name("EmbeddedFile"),
                                               "Subtype": .name("application/c2pa")])
        out += Array("\(streamNumber) 0 obj\n".utf8) + streamDict.encoded + Array("\nstream\n".utf8)
        let start = out.count
        out += store + Array("\nendstream\nendobj\n".utf8)
        offsets.append((specNumber, 0, out.count))
        let spec = PDFObject.dictionary([
            "Type": .name("Filespec"), "AFRelationship": .name("C2PA_Manifest"), "Desc": .string(Array("Content Credentials".utf8)),
            "F": .string(Array("manifest.c2pa".utf8)), "UF": .string(Array("manifest.c2pa".utf8)),
            "EF": .dictionary(["F": .reference(number: streamNumber, generation: 0)]),
        ])
        out += Array("\(specNumber) 0 obj\n".utf8) + spec.encoded + Array("\nendobj\n".utf8)
        offsets.append((root, rootGen, out.count))
        out += Array("\(root) \(rootGen) obj\n".utf8) + PDFObject.dictionary(catalog).encoded + Array("\nendobj\n".utf8)
        let xref = out.count
        out += Array("xref\n".utf8)
        for (n, g, o) in offsets.sorted(by: { $0.0 < $1.0 }) {
            out += Array("\(n) 1\n".utf8) + Array(String(format10(o)).utf8) + Array(" \(String(repeating: "0", count: 5 - String(g).count))\(g) n \n".utf8)
        }
        let trailer = PDFObject.dictionary(["Size": .integer(size + 2), "Root": .reference(number: root, generation: rootGen),
                                            "Prev": .integer(doc.startXref)])
        out += Array("trailer\n".utf8) + trailer.encoded + Array("\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return (out, start..<(start + store.count))
    }

    static func format10(_ v: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, 10 - s.count)) + s
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in pdf: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(pdf)), let r = loc.span else { throw .noInsertionPoint }
        guard store.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: store.count) }
        var out = pdf
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: store)
        return out
    }
}

extension PDFContainer {
    /// `pdf` with an incremental update that writes the catalog again without `/AF` (the C2PA
    /// file specification and its stream stay in the file, unreferenced).
    public static func remove(from pdf: [UInt8]) throws(ContainerError) -> [UInt8] {
        var doc = try PDFDocument(MemoryByteSource(pdf))
        guard case .reference(let root, let gen)? = doc.trailer["Root"], var catalog = try doc.resolve(doc.trailer["Root"])?.dictionaryValue,
              catalog["AF"] != nil, let size = doc.trailer["Size"]?.integerValue else { throw .noInsertionPoint }
        catalog["AF"] = nil
        var out = pdf
        if out.last != 10 { out.append(10) }
        let at = out.count
        out += Array("\(root) \(gen) obj\n".utf8) + PDFObject.dictionary(catalog).encoded + Array("\nendobj\n".utf8)
        let xref = out.count
        out += Array("xref\n\(root) 1\n\(format10(at)) ".utf8) + Array("\(String(repeating: "0", count: 5 - String(gen).count))\(gen) n \n".utf8)
        let trailer = PDFObject.dictionary(["Size": .integer(size), "Root": .reference(number: root, generation: gen),
                                            "Prev": .integer(doc.startXref)])
        out += Array("trailer\n".utf8) + trailer.encoded + Array("\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}

extension PDFContainer {
    /// A one-page PDF 1.7 with a classic cross-reference table whose page draws `content` (a
    /// content stream): the smallest document the writers and the tests start from.
    public static func minimalDocument(content: String = "0 0 1 rg 20 20 160 160 re f") -> [UInt8] {
        let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                       "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
                       "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream"]
        var out = Array("%PDF-1.7\n".utf8) + [0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0A]
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(i + 1) 0 obj\n\(o)\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for o in offsets { out += Array("\(format10(o)) 00000 n \n".utf8) }
        out += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
