@testable import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

/// The parsing side of the BMFF variants c2pa-rs's fixtures carry (the whole-file checks against
/// c2pa-python are in VerifyTests/C2PABMFFVariantTests): box walking (QuickTime `meta`, `mdat`
/// cut short, size 0, depth), the hash assertion's optional fields as `null`, merkle maps, and
/// `self#jumbf=c2pa/…` URIs.
@Suite struct BMFFVariantParsingTests {
    let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypqt  ".utf8) + [0, 0, 2, 0]

    func box(_ type: String, _ body: [UInt8]) -> [UInt8] { BigEndian.bytes(UInt32(body.count + 8)) + Array(type.utf8) + body }

    @Test func quickTimeAndISOMeta() throws {
        let hdlr = box("hdlr", [UInt8](repeating: 0, count: 25))
        let ilst = box("ilst", [1, 2, 3, 4])
        // QuickTime: meta's body starts with its hdlr child.
        let qt = ftyp + box("moov", box("meta", hdlr + ilst))
        let q = try #require(BMFFBox.boxes(at: "/moov/meta", in: try BMFFBox.parse(MemoryByteSource(qt))).first)
        #expect(q.version == nil && q.flags == nil && q.children.map(\.type) == ["hdlr", "ilst"])
        #expect(BMFFBox.boxes(at: "/moov/meta/ilst", in: try BMFFBox.parse(MemoryByteSource(qt))).first?.range.count == 12)
        // ISO: a FullBox (version 0, flags 0) before the children.
        let iso = ftyp + box("moov", box("meta", [0, 0, 0, 0] + hdlr + ilst))
        let i = try #require(BMFFBox.boxes(at: "/moov/meta", in: try BMFFBox.parse(MemoryByteSource(iso))).first)
        #expect(i.version == 0 && i.flags == 0 && i.children.map(\.type) == ["hdlr", "ilst"])
        // c2pa-rs's container list: tref is walked into, a box it does not know is a leaf.
        let tree = try BMFFBox.parse(MemoryByteSource(ftyp + box("moov", box("trak", box("tref", box("hint", [0, 0, 0, 1]))
                                                                                + box("iprp", box("ipco", []))))))
        #expect(BMFFBox.boxes(at: "/moov/trak/tref/hint", in: tree).count == 1)
        #expect(BMFFBox.boxes(at: "/moov/trak/iprp/ipco", in: tree).isEmpty)
        // FullBox version/flags on c2pa-rs's FULL_BOX_TYPES (e.g. vmhd, smhd).
        let vmhd = try BMFFBox.parse(MemoryByteSource(ftyp + box("vmhd", [1, 0, 0, 1] + [UInt8](repeating: 0, count: 8))))[1]
        #expect(vmhd.version == 1 && vmhd.flags == 1)
    }

    @Test func sizesAndDepth() throws {
        // An mdat running past the end is cut at the end; any other box is refused.
        let cut = ftyp + BigEndian.bytes(UInt32(1000)) + Array("mdat".utf8) + [1, 2, 3]
        #expect(try BMFFBox.parse(MemoryByteSource(cut)).last?.range == 16..<27)
        #expect(throws: ContainerError.badBoxSize(offset: 16)) {
            try BMFFBox.parse(MemoryByteSource(ftyp + BigEndian.bytes(UInt32(1000)) + Array("free".utf8) + [1, 2, 3]))
        }
        // Size 0 inside a container: only an mdat (to its parent's end).
        let inner = box("moov", [0, 0, 0, 0] + Array("free".utf8) + [9, 9])
        #expect(throws: ContainerError.badBoxSize(offset: 24)) { try BMFFBox.parse(MemoryByteSource(ftyp + inner)) }
        let innerMdat = box("moof", [0, 0, 0, 0] + Array("mdat".utf8) + [9, 9]) + box("free", [])
        let tree = try BMFFBox.parse(MemoryByteSource(ftyp + innerMdat))
        #expect(tree[1].children.first?.range == 24..<34 && tree.last?.type == "free")
        // Trailing bytes too few for a header are still refused.
        #expect(throws: ContainerError.truncated(offset: 16)) { try BMFFBox.parse(MemoryByteSource(ftyp + [0, 0, 0, 0, 0])) }
        // Depth: a box at depth 31 is read, at depth 32 refused (c2pa-rs MAX_BOX_DEPTH); an
        // empty container at depth 31 is fine.
        func nested(_ depth: Int, leaf: [UInt8]) -> [UInt8] {
            var b = leaf
            for _ in 0..<depth { b = box("moov", b) }
            return ftyp + b
        }
        #expect(try BMFFBox.parse(MemoryByteSource(nested(31, leaf: box("free", [])))).count == 2)
        #expect(try BMFFBox.parse(MemoryByteSource(nested(31, leaf: box("moov", [])))).count == 2)
        #expect(throws: ContainerError.depthExceeded(offset: Int64(16 + 8 * 32))) {
            try BMFFBox.parse(MemoryByteSource(nested(32, leaf: box("free", []))))
        }
    }

    @Test func hashAssertionNullsAndMerkle() throws {
        var a = BMFFHashAssertion(version: 3, hash: [UInt8](repeating: 1, count: 32))
        a.exclusions.append(.init(xpath: "/moov/trak/mdia/minf/stbl/stco", subset: [.init(offset: 16, length: 0)], flags: [1, 0, 0]))
        a.merkle = [.init(uniqueID: 1, localID: 2, count: 3, alg: "sha384", initHash: [4], hashes: [[5], [6]], fixedBlockSize: 1024)]
        // Written with nulls (older c2pa-rs) or without, it reads back the same.
        for nulls in [false, true] {
            let cbor = try CBOR(decoding: a.cbor(exclusionNulls: nulls).encoded())
            #expect(try BMFFHashAssertion(label: "c2pa.hash.bmff.v3", cbor: cbor) == a)
        }
        #expect(a.cbor(exclusionNulls: true)["exclusions"]?.arrayValue?.last?["data"] == .null)
        #expect(a.cbor(exclusionNulls: false)["exclusions"]?.arrayValue?.last?["data"] == nil)
        // null at the top level too; a present field of the wrong type is still refused.
        let top = CBOR.textMap([("exclusions", .array([.textMap([("xpath", .text("/ftyp")), ("length", .null)])])),
                                ("alg", .null), ("hash", .bytes([1])), ("merkle", .null), ("name", .null)])
        let t = try BMFFHashAssertion(label: "c2pa.hash.bmff", cbor: top)
        #expect(t.version == 1 && t.alg == nil && t.merkle == nil && t.exclusions == [.init(xpath: "/ftyp")])
        let bad = CBOR.textMap([("exclusions", .array([.textMap([("xpath", .text("/ftyp")), ("length", .text("8"))])]))])
        #expect(throws: HashAssertionError.badField("length")) { try BMFFHashAssertion(label: "c2pa.hash.bmff.v2", cbor: bad) }
        let noHashes = CBOR.textMap([("exclusions", .array([])), ("merkle", .array([.textMap([("uniqueId", .unsigned(1)),
                                                                                            ("localId", .unsigned(1)), ("count", .unsigned(1))])]))])
        #expect(throws: HashAssertionError.badField("merkle.hashes")) { try BMFFHashAssertion(label: "c2pa.hash.bmff.v2", cbor: noHashes) }
    }

    @Test func assertionShapeChecks() throws {
        let file = ftyp + box("mdat", [1, 2, 3])
        var a = BMFFHashAssertion(version: 2, exclusions: [], hash: [0])
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .malformed("no exclusions"))
        a.exclusions = [.init(xpath: "/ftyp", subset: [.init(offset: 8, length: 4), .init(offset: 0, length: 4)])]
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .malformed("subsets not ordered by offset"))
        a.exclusions = [.init(xpath: "/ftyp", subset: [.init(offset: UInt64.max, length: 2), .init(offset: UInt64.max, length: 1)])]
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .malformed("subsets overlap"))
        a.exclusions = [.init(xpath: "/ftyp")]
        a.hash = nil
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .malformed("neither hash nor merkle"))
        a.url = "https://example.com/hash"
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .mismatch("remote BMFF hash (url) is deprecated"))
        // A merkle map per mdat when unfragmented (c2pa-rs), its tree recomputed: one leaf, the
        // mdat's bytes from offset 16 (none in this 11-byte mdat).
        a.url = nil
        a.merkle = [.init(uniqueID: 1, localID: 1, count: 1, hashes: [[0]]), .init(uniqueID: 2, localID: 1, count: 1, hashes: [[0]])]
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .mismatch("number of merkle maps does not match the mdat boxes"))
        a.merkle?.removeLast()
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .mismatch("mdat block 0 does not match the merkle map"))
        a.merkle?[0].hashes = [MessageDigest.sha256([])]
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: nil) == .match)
        a.merkle = [.init(uniqueID: 1, localID: 1, count: 1, alg: nil, hashes: [[0]])]
        a.alg = nil
        #expect(a.verify(over: MemoryByteSource(file), claimAlg: "sha256") == .mismatch("no algorithm for the merkle map"))
    }

    @Test func absoluteURIWithoutSlash() throws {
        let p = try #require(JUMBFURI.path(of: "self#jumbf=c2pa/contoso:urn:uuid:FA0E/c2pa.assertions/c2pa.hash.bmff.v2"))
        #expect(p.absolute && p.labels == ["c2pa", "contoso:urn:uuid:FA0E", "c2pa.assertions", "c2pa.hash.bmff.v2"])
        #expect(JUMBFURI.path(of: "self#jumbf=c2pa.assertions/c2pa.hash.data")?.absolute == false)
        #expect(JUMBFURI.path(of: "self#jumbf=/c2pa/x/c2pa.assertions/a")?.absolute == true)
    }
}
