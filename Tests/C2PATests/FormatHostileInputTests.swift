import Inflate
import Testing
@testable import C2PA

/// The container readers of issue 16 on hostile input: every truncation and every byte flip of
/// a small carrier file, length bombs, nesting and cycles. Nothing crashes or hangs; each
/// failure is a `ContainerError` with one of the named codes, never a guess.
@Suite struct FormatHostileInputTests {
    let store = HostileInputTests().sampleStore()

    static let codes: Set<String> = [
        "container.unsupported", "container.truncated", "container.badChunk", "container.badIFD", "container.badBlock",
        "container.badXML", "container.badBase64", "container.badTag", "container.notFLAC", "container.badPDF",
        "container.encrypted", "container.cycle", "container.tooManyParts", "container.depthExceeded",
        "container.tooManyManifestStores", "container.manifestTooLarge", "container.badBoxSize", "container.badSegmentLength",
        "container.notBMFF", "container.notJPEG",
    ]

    // Minimal carriers, built by hand (no codec needed).
    static let png: [UInt8] = PNGContainer.signature
        + (try! PNGContainer.chunk(type: "IHDR", data: [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]))
        + (try! PNGContainer.chunk(type: "IDAT", data: [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]))
        + (try! PNGContainer.chunk(type: "IEND", data: []))
    static let wav: [UInt8] = {
        let fmt = (try! RIFFContainer.chunk(id: "fmt ", data: [1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0]))
        let data = (try! RIFFContainer.chunk(id: "data", data: [UInt8](repeating: 0x11, count: 32)))
        return Array("RIFF".utf8) + LittleEndian.bytes(UInt32(4 + fmt.count + data.count)) + Array("WAVE".utf8) + fmt + data
    }()
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
    static let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0] + [1, 0] + [0, 1, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0] + [0, 0, 0, 0]
    static let svg = Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"1\" height=\"1\"/></svg>\n".utf8)
    static let jxl = JXLContainer.wrap(codestream: [0xFF, 0x0A, 0x00, 0x01, 0x02, 0x03])
    static let mp3: [UInt8] = [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0x55, count: 60)
    static let flac: [UInt8] = Array("fLaC".utf8) + [0x80, 0, 0, 0x22] + [UInt8](repeating: 0, count: 34)

    func signedSamples() throws -> [(String, [UInt8])] {
        [
            ("png", try PNGContainer.embed(store, into: Self.png).bytes),
            ("wav", try RIFFContainer.embed(store, into: Self.wav).bytes),
            ("gif", try GIFContainer.embed(store, into: Self.gif).bytes),
            ("tiff", try TIFFContainer.embed(store, into: Self.tiff).bytes),
            ("svg", try SVGContainer.embed(store, into: Self.svg).bytes),
            ("jxl", try JXLContainer.embed(store, into: Self.jxl).bytes),
            ("mp3", try ID3Container.embed(store, into: Self.mp3).bytes),
            ("flac", try ID3Container.embed(store, into: Self.flac).bytes),
            ("pdf", try PDFContainer.embed(store, into: PDFContainer.minimalDocument()).bytes),
        ]
    }

    /// Reading `bytes` either finds a lookup or throws a named container error.
    func readNamed(_ bytes: [UInt8], _ what: String) {
        do { _ = try AssetContainer.read(MemoryByteSource(bytes)) } catch {
            #expect(Self.codes.contains(error.code), "\(what): \(error.code)")
        }
    }

    @Test func everyFormatRoundTripsThroughItsWriter() throws {
        for (name, bytes) in try signedSamples() {
            let read = try AssetContainer.read(MemoryByteSource(bytes))
            guard case .found(let loc) = read.lookup else { Issue.record("\(name): no store"); continue }
            #expect(loc.storeBytes == store, "\(name)")
            #expect(read.format.rawValue == name, "\(name): \(read.format)")
            // The writer's range is the carrier the reader reports (TIFF: the store bytes).
            #expect(loc.ranges.count == 1, "\(name)")
            if let f = ContainerFormat(rawValue: name) {
                let stripped = try ManifestBuilder.strip(bytes, format: f)
                #expect(try AssetContainer.read(MemoryByteSource(stripped)).lookup == .absent(reason: "none"), "\(name) stripped")
            }
        }
    }

    @Test func everyTruncationAndFlipIsNamed() throws {
        for (name, bytes) in try signedSamples() {
            for n in 0..<bytes.count { readNamed(Array(bytes.prefix(n)), "\(name) cut at \(n)") }
            for i in 0..<bytes.count {
                var b = bytes
                b[i] ^= 0xFF
                readNamed(b, "\(name) flip at \(i)")
            }
        }
    }

    @Test func lengthBombs() throws {
        // PNG chunk length 0x7FFFFFFF: truncated, no allocation.
        var png = try PNGContainer.embed(store, into: Self.png).bytes
        png.replaceSubrange(33..<37, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(throws: ContainerError.truncated(offset: 33)) { try PNGContainer.manifest(in: MemoryByteSource(png)) }
        // RIFF size past the file; a child past its parent.
        var wav = Self.wav
        wav.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ContainerError.truncated(offset: 0)) { try RIFFContainer.manifest(in: MemoryByteSource(wav)) }
        var child = Self.wav
        child.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0x7F])
        #expect(throws: ContainerError.truncated(offset: 12)) { try RIFFContainer.manifest(in: MemoryByteSource(child)) }
        // ID3 tag size past the file: absence with the named reason (c2pa-rs reads "no JUMBF").
        var id3 = try ID3Container.embed(store, into: Self.mp3).bytes
        id3.replaceSubrange(6..<10, with: [0x7F, 0x7F, 0x7F, 0x7F])
        #expect(try ID3Container.manifest(in: MemoryByteSource(id3)) == .absent(reason: "container.truncated"))
        // The same tag in front of a FLAC stream: no `fLaC` where the tag says it ends.
        #expect(throws: ContainerError.notFLAC(offset: 268_435_465)) {
            try ID3Container.manifest(in: MemoryByteSource(id3), flac: true)
        }
        // TIFF: an IFD entry count past the file; a C2PA entry of the wrong type.
        var tiff = Self.tiff
        tiff.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        #expect(throws: ContainerError.truncated(offset: 8)) { try TIFFContainer.manifest(in: MemoryByteSource(tiff)) }
        var typed = try TIFFContainer.embed(store, into: Self.tiff)
        let entry = typed.countField.lowerBound - 4
        typed.bytes.replaceSubrange((entry + 2)..<(entry + 4), with: [1, 0])
        #expect(throws: ContainerError.badIFD(offset: Int64(entry))) { try TIFFContainer.manifest(in: MemoryByteSource(typed.bytes)) }
        // JPEG XL: a largesize past the file.
        let jxlBomb = Self.jxl + [0, 0, 0, 1] + Array("jumb".utf8) + [0x7F, 0, 0, 0, 0, 0, 0, 0]
        #expect(throws: ContainerError.truncated(offset: Int64(Self.jxl.count))) { try JXLContainer.manifest(in: MemoryByteSource(jxlBomb)) }
        // GIF: a global colour table larger than the file.
        var gif = Self.gif
        gif[10] = 0x87
        #expect(throws: ContainerError.truncated(offset: 13 + 768)) { try GIFContainer.manifest(in: MemoryByteSource(gif)) }
        // Inflate: a zlib stream of 64 KiB of zeros, refused past the limit; a cut stream.
        let zeros: [UInt8] = [0x78, 0xDA, 0xED, 0xC1, 0x01, 0x01, 0x00, 0x00, 0x00, 0x80, 0x90, 0xFE, 0xAF, 0xEE, 0x08, 0x0A]
            + [UInt8](repeating: 0, count: 63) + [0x6A, 0x00, 0x0F, 0x00, 0x01]
        #expect(try Inflate.inflate(zeros, limit: 1 << 16).count == 1 << 16)
        #expect(throws: Inflate.Failure.tooLarge(limit: 1000)) { try Inflate.inflate(zeros, limit: 1000) }
        #expect(throws: Inflate.Failure.corrupt) { try Inflate.inflate(Array(zeros.prefix(40)), limit: 1 << 20) }
        // Raw deflate (no zlib header) of 200,000 zeros: the output spans four 64 KiB rounds of
        // the one z_stream; the limit is checked across rounds.
        let rawZeros: [UInt8] = [0xED, 0xC1, 0x31, 0x01, 0x00, 0x00, 0x00, 0xC2, 0xA0, 0xF5, 0x4F, 0x6D, 0x06, 0x7F, 0xA0]
            + [UInt8](repeating: 0, count: 193) + [0x80, 0xD7, 0x00]
        #expect(try Inflate.inflate(rawZeros, wrapper: .raw, limit: 1 << 20) == [UInt8](repeating: 0, count: 200_000))
        #expect(throws: Inflate.Failure.tooLarge(limit: 150_000)) { try Inflate.inflate(rawZeros, wrapper: .raw, limit: 150_000) }
        #expect(throws: Inflate.Failure.corrupt) { try Inflate.inflate(rawZeros, limit: 1 << 20) }  // not zlib-wrapped
    }

    @Test func nestingCyclesAndCounts() throws {
        // SVG nested past the cap.
        let deep = Array(("<svg>" + String(repeating: "<g>", count: 600)).utf8)
        #expect(throws: ContainerError.self) { try SVGContainer.manifest(in: MemoryByteSource(deep)) }
        do { _ = try SVGContainer.manifest(in: MemoryByteSource(deep)) } catch { #expect(error.code == "container.depthExceeded") }
        // SVG: mismatched end tag, unterminated comment, a root that is not svg, bad base64.
        #expect(throws: ContainerError.badXML(offset: 5)) { try SVGContainer.manifest(in: MemoryByteSource(Array("<svg></g>".utf8))) }
        #expect(throws: ContainerError.badXML(offset: 9)) { try SVGContainer.manifest(in: MemoryByteSource(Array("<svg><!-- x".utf8))) }
        #expect(throws: ContainerError.unsupported) { try SVGContainer.manifest(in: MemoryByteSource(Array("<html><body/></html>".utf8))) }
        let badB64 = Array("<svg><metadata><c2pa:manifest>AAA</c2pa:manifest></metadata></svg>".utf8)
        #expect(throws: ContainerError.badBase64(offset: 30)) { try SVGContainer.manifest(in: MemoryByteSource(badB64)) }
        // TIFF: an IFD chain that comes back to itself.
        var loop = Self.tiff
        loop.replaceSubrange(22..<26, with: [8, 0, 0, 0])
        #expect(throws: ContainerError.cycle(offset: 8)) { try TIFFContainer.manifest(in: MemoryByteSource(loop)) }
        // JPEG XL: more boxes than c2pa-rs walks.
        let many = Self.jxl + (0..<1025).flatMap { _ in [0, 0, 0, 8] + Array("skip".utf8) }
        // The signature, ftyp and jxlc boxes, then skip boxes: the 1,025th box is refused.
        #expect(throws: ContainerError.tooManyParts(offset: Int64(Self.jxl.count + 1021 * 8))) {
            try JXLContainer.manifest(in: MemoryByteSource(many))
        }
        // PDF: arrays nested past the cap; a /Prev chain back to itself; a missing startxref.
        var p = PDFParser(MemoryByteSource(Array(String(repeating: "[", count: 100).utf8)))
        #expect(throws: ContainerError.depthExceeded(offset: 65)) { try p.object() }
        let doc = PDFContainer.minimalDocument()
        let xref = try #require(FormatHostileInputTests.lastIndex(of: Array("\nxref".utf8), in: doc)) + 1
        let looped = doc.replacing(Array("/Root 1 0 R >>".utf8), with: Array("/Root 1 0 R /Prev \(xref) >>".utf8))
        #expect(throws: ContainerError.cycle(offset: Int64(xref))) { try PDFContainer.manifest(in: MemoryByteSource(looped)) }
        #expect(throws: ContainerError.badPDF(offset: 14)) { try PDFContainer.manifest(in: MemoryByteSource(Array("%PDF-1.7\n%%EOF".utf8))) }
        // An /Encrypt dictionary with a C2PA file specification.
        let signed = try PDFContainer.embed(store, into: doc).bytes
        let encrypted = signed.replacing(Array("/Prev".utf8), with: Array("/Encrypt 1 0 R /Prev".utf8))
        #expect(throws: ContainerError.encrypted) { try PDFContainer.manifest(in: MemoryByteSource(encrypted)) }
    }

    /// A PDF whose cross-reference data is a stream (no filter) and whose catalog sits in an
    /// object stream: the PDF 1.5 layout of most current writers.
    @Test func pdfCrossReferenceStreamAndObjectStream() throws {
        let catalog = "<< /Type /Catalog /Pages 3 0 R /AF [4 0 R] >>"
        let spec = "<< /Type /Filespec /AFRelationship /C2PA_Manifest /EF << /F 5 0 R >> >>"
        let header = "1 0 2 \(catalog.utf8.count + 1) "
        let objStm = header + catalog + " " + spec
        var out = Array("%PDF-1.7\n".utf8)
        let o2 = out.count
        out += Array("2 0 obj\n<< /Type /ObjStm /N 2 /First \(header.utf8.count) /Length \(objStm.utf8.count) >>\nstream\n\(objStm)\nendstream\nendobj\n".utf8)
        let o3 = out.count
        out += Array("3 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n".utf8)
        let o5 = out.count
        out += Array("5 0 obj\n<< /Length \(store.count) >>\nstream\n".utf8) + store + Array("\nendstream\nendobj\n".utf8)
        let o6 = out.count
        func row(_ t: UInt8, _ a: Int, _ b: UInt8) -> [UInt8] { [t, UInt8(a >> 8), UInt8(a & 0xFF), b] }
        let rows = row(0, 0, 0) + row(2, 2, 0) + row(1, o2, 0) + row(1, o3, 0) + row(2, 2, 1) + row(1, o5, 0) + row(1, o6, 0)
        out += Array("6 0 obj\n<< /Type /XRef /Size 7 /W [1 2 1] /Root 1 0 R /Length \(rows.count) >>\nstream\n".utf8)
            + rows + Array("\nendstream\nendobj\nstartxref\n\(o6)\n%%EOF\n".utf8)
        guard case .found(let loc) = try PDFContainer.manifest(in: MemoryByteSource(out)) else { Issue.record("no store"); return }
        #expect(loc.storeBytes == store)
        #expect(loc.ranges == [Int64(o5 + 30 + String(store.count).utf8.count)..<Int64(o5 + 30 + String(store.count).utf8.count + store.count)])
    }

    /// BMFF Merkle maps with hostile values: huge or tiny block sizes, sizes that overflow, huge
    /// counts and locations, undecodable and padded merkle boxes. A verdict each, no crash.
    @Test func bmffMerkleHostileValues() throws {
        func box(_ t: String, _ p: [UInt8]) -> [UInt8] { BigEndian.bytes(UInt32(8 + p.count)) + Array(t.utf8) + p }
        let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 0, 0])
        let file = ftyp + box("mdat", [UInt8](repeating: 7, count: 100))
        var a = BMFFHashAssertion(version: 3, hash: nil)
        for (fixed, variable, count) in [(UInt64.max, nil, 1), (UInt64(2), nil, UInt64.max), (nil, [UInt64.max, 2], 2),
                                         (nil, [UInt64](repeating: 1, count: 84), 84), (UInt64(1), nil, 1), (nil, nil, UInt64(0))]
            as [(UInt64?, [UInt64]?, UInt64)] {
            a.merkle = [.init(uniqueID: 1, localID: 1, count: count, alg: "sha256", hashes: [[0]], fixedBlockSize: fixed, variableBlockSizes: variable)]
            let v = a.verify(over: MemoryByteSource(file), claimAlg: nil)
            #expect(v.status == "mismatch", "\(String(describing: fixed)) \(String(describing: variable)) \(count): \(v)")
        }
        // Merkle boxes: a proof for a location past the count, an undecodable box, non-zero padding.
        func merkle(_ cbor: [UInt8]) -> [UInt8] { box("uuid", BMFFBox.c2paUserType + [0, 0, 0, 0] + Array("merkle".utf8) + [0] + cbor) }
        let far = BMFFHashAssertion.MerkleProofBox(uniqueID: 1, localID: 1, location: UInt64.max, proof: [[1], [2]]).cbor.encoded()
        a.merkle = [.init(uniqueID: 1, localID: 1, count: 1, alg: "sha256", hashes: [[0]], fixedBlockSize: 4096)]
        #expect(a.verify(over: MemoryByteSource(file + merkle(far)), claimAlg: nil).status == "mismatch")
        #expect(a.verify(over: MemoryByteSource(file + merkle(far + [0, 0, 1])), claimAlg: nil) == .mismatch("hash.badField"))
        #expect(throws: ContainerError.badMerkleBox(offset: Int64(file.count))) {
            try BMFFContainer.manifest(in: MemoryByteSource(file + merkle([0xBF])))
        }
    }

    /// Sample tables of a track-chunk Merkle tree with hostile counts: no crash, a named error or
    /// a sample the tables do not place.
    @Test func bmffSampleTablesHostile() throws {
        func box(_ t: String, _ p: [UInt8]) -> [UInt8] { BigEndian.bytes(UInt32(8 + p.count)) + Array(t.utf8) + p }
        func full(_ t: String, _ p: [UInt8]) -> [UInt8] { box(t, [0, 0, 0, 0] + p) }
        func u32(_ v: UInt32) -> [UInt8] { BigEndian.bytes(v) }
        func file(stsc: [UInt8], stsz: [UInt8], stco: [UInt8]) -> [UInt8] {
            let tkhd = full("tkhd", u32(0) + u32(0) + u32(1) + [UInt8](repeating: 0, count: 72))
            let stbl = box("stbl", box("stsc", stsc) + box("stsz", stsz) + box("stco", stco))
            let trak = box("trak", tkhd + box("mdia", box("minf", stbl)))
            return box("ftyp", Array("isom".utf8) + [0, 0, 0, 0]) + box("moov", trak) + box("mdat", [UInt8](repeating: 9, count: 64))
        }
        let good = file(stsc: [0, 0, 0, 0] + u32(1) + u32(1) + u32(2) + u32(1), stsz: [0, 0, 0, 0] + u32(4) + u32(3),
                        stco: [0, 0, 0, 0] + u32(2) + u32(60) + u32(68))
        let tables = try BMFFSampleTables(source: MemoryByteSource(good), tree: try BMFFBox.parse(MemoryByteSource(good)))
        var seen: [(UInt32, Range<UInt64>?)] = []
        try #require(tables.tracks[1]).forEachSample { seen.append(($0, $1)) }
        #expect(seen.map(\.0) == [1, 1, 2] && seen.map(\.1) == [60..<64, 64..<68, 68..<72])
        let cases: [(String, [UInt8])] = [
            ("stsc count past its box", file(stsc: [0, 0, 0, 0] + u32(1_000_000), stsz: [0, 0, 0, 0] + u32(4) + u32(1), stco: [0, 0, 0, 0] + u32(0))),
            ("stsz count past its box", file(stsc: [0, 0, 0, 0] + u32(0), stsz: [0, 0, 0, 0] + u32(0) + u32(0x7FFF_FFFF), stco: [0, 0, 0, 0] + u32(0))),
            ("a huge fixed sample count", file(stsc: [0, 0, 0, 0] + u32(0), stsz: [0, 0, 0, 0] + u32(4) + u32(0xFFFF_FFFF), stco: [0, 0, 0, 0] + u32(0))),
            ("stco count past its box", file(stsc: [0, 0, 0, 0] + u32(0), stsz: [0, 0, 0, 0] + u32(4) + u32(1), stco: [0, 0, 0, 0] + u32(9))),
        ]
        for (name, bytes) in cases {
            #expect(throws: HashAssertionError.self, "\(name)") {
                _ = try BMFFSampleTables(source: MemoryByteSource(bytes), tree: try BMFFBox.parse(MemoryByteSource(bytes)))
            }
        }
        // No samples per chunk; a chunk with no offset.
        let zero = file(stsc: [0, 0, 0, 0] + u32(1) + u32(1) + u32(0) + u32(1), stsz: [0, 0, 0, 0] + u32(4) + u32(1), stco: [0, 0, 0, 0] + u32(1) + u32(60))
        let z = try BMFFSampleTables(source: MemoryByteSource(zero), tree: try BMFFBox.parse(MemoryByteSource(zero)))
        #expect(throws: HashAssertionError.badField("stsc samples per chunk")) { try z.tracks[1]?.forEachSample { _, _ in } }
        let far = file(stsc: [0, 0, 0, 0] + u32(1) + u32(5) + u32(1) + u32(1), stsz: [0, 0, 0, 0] + u32(4) + u32(1), stco: [0, 0, 0, 0] + u32(1) + u32(60))
        let f = try BMFFSampleTables(source: MemoryByteSource(far), tree: try BMFFBox.parse(MemoryByteSource(far)))
        var placed: [Range<UInt64>?] = []
        try f.tracks[1]?.forEachSample { placed.append($1) }
        #expect(placed == [nil])
    }

    static func lastIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        stride(from: hay.count - needle.count, through: 0, by: -1).first { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension Array where Element == UInt8 {
    /// `self` with the first occurrence of `a` replaced by `b`.
    func replacing(_ a: [UInt8], with b: [UInt8]) -> [UInt8] {
        guard let i = (0...(count - a.count)).first(where: { self[$0..<($0 + a.count)].elementsEqual(a) }) else { return self }
        return Array(self[..<i]) + b + Array(self[(i + a.count)...])
    }
}
