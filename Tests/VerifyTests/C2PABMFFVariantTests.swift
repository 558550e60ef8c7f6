import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// The ISO BMFF variants that c2pa-rs's own fixtures carry (docs/interop.md, "c2pa-rs
/// fixtures"), rebuilt from files we make (ffmpeg output, edited box by box, signed with our
/// writer): exclusion fields written as CBOR `null`, the v1 `c2pa.hash.bmff` label, assertion
/// URIs `self#jumbf=c2pa/…` without the leading slash, merkle `initHash` on an init segment and
/// on a fragmented file, QuickTime `meta`, largesize and size-0 boxes, a truncated `mdat`, the
/// nesting limit, overlapping subsets. Where c2pa-python can read the file, its verdict (integrity
/// and failure codes) must equal ours.
@Suite struct C2PABMFFVariantTests {
    let t = C2PAValidatorTests()
    let peer = C2PAReferenceAgreementTests()

    /// ffmpeg output (1 s of 160x120 test pattern, H.264) with extra muxer arguments.
    func ffmpeg(_ muxer: [String], ext: String) throws -> [UInt8] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bmff-variant-\(getpid())-\(UUID().uuidString).\(ext)")
        defer { try? FileManager.default.removeItem(at: out) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-t", "1",
                       "-c:v", "libx264", "-g", "5"] + muxer + [out.path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return [UInt8](try Data(contentsOf: out))
    }

    /// Our report, checked against c2pa-rs's on the same bytes when the peer is available.
    @discardableResult
    func agree(_ bytes: [UInt8], mime: String = "video/mp4", _ name: String) throws -> C2PAReport {
        let r = try t.validator().validate(source: MemoryByteSource(bytes))
        let pki = try C2PAValidatorTests.pki.get()
        if C2PAReferenceAgreementTests.python != nil, let ref = try peer.reference(bytes, mime: mime, anchorsPEM: pki.root.pem) {
            print("bmff variant \(name): ours \(r.integrity) \(r.failureCodes) | c2pa-rs \(ref.state) \(ref.failure) \(ref.error ?? "")")
            #expect(peer.ours(r) == ref.state, "\(name): ours \(r.integrity) \(r.failureCodes), c2pa-rs \(ref.state) \(ref.error ?? "")")
            #expect(Set(r.failureCodes) == Set(ref.failure), "\(name): ours \(r.failureCodes), c2pa-rs \(ref.failure)")
        }
        return r
    }

    func failure(_ r: C2PAReport, _ code: String) -> C2PAReport.Status? { r.failure.first { $0.code == code } }

    /// Sets the 4-byte size field at `at`.
    func setSize(_ b: inout [UInt8], at: Int, _ size: Int) {
        b.replaceSubrange(at..<(at + 4), with: be32(size))
    }

    func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    func be64(_ v: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }

    func top(_ b: [UInt8], _ type: String) throws -> BMFFBox {
        try #require(try BMFFBox.parse(MemoryByteSource(b)).first { $0.type == type })
    }

    // MARK: - The assertion's CBOR

    /// `video1.mp4`, `legacy.mp4`: every unset exclusion field written as `null` (older c2pa-rs);
    /// `legacy.mp4` also uses the v1 label `c2pa.hash.bmff`, which hashes no box offsets.
    @Test func nullExclusionFieldsAndV1Label() throws {
        let mp4 = try t.media("mp4")
        for version in [2, 1] {
            let template = BMFFHashAssertion(version: version, hash: nil)
            #expect(template.cbor(exclusionNulls: true)["exclusions"]?.arrayValue?.first?["length"] == .null)
            let file = try t.builder(timestamp: false).signMP4(mp4, bmffHash: template, exclusionNulls: true)
            let r = try agree(file, "v\(version) with null exclusion fields")
            #expect(r.integrity == .intact, "v\(version): \(r.failure)")
            #expect(r.codes.contains("assertion.bmffHash.match"))
            #expect(r.success.contains { $0.url?.hasSuffix("/c2pa.assertions/\(BMFFHashAssertion.label(version: version))") == true })
            let mdat = try top(file, "mdat")
            let flipped = try agree(t.flip(file, at: Int(mdat.range.lowerBound) + 200), "v\(version) mdat flip")
            #expect(flipped.failureCodes == ["assertion.bmffHash.mismatch"])
        }
        #expect(BMFFHashAssertion.label(version: 1) == "c2pa.hash.bmff")
        // v1 hashes no offsets: the same hash under the v2 label (offsets hashed) does not match.
        let v1 = try t.builder(timestamp: false).signMP4(mp4, bmffVersion: 1)
        let store = try #require({ if case .found(let l) = try BMFFContainer.manifest(in: MemoryByteSource(v1)) { l } else { nil } }())
        let box = try #require(try ManifestStore(parsing: store.storeBytes).activeManifest?.assertion(labelled: "c2pa.hash.bmff"))
        let cbor = try CBOR(decoding: Array(try #require(box.contentBoxes(ofType: "cbor").first).payload))
        #expect(try BMFFHashAssertion(label: "c2pa.hash.bmff", cbor: cbor).verify(over: MemoryByteSource(v1), claimAlg: nil) == .match)
        #expect(try BMFFHashAssertion(label: "c2pa.hash.bmff.v2", cbor: cbor).verify(over: MemoryByteSource(v1), claimAlg: nil)
                == .mismatch("asset hash does not match"))
    }

    /// `dashinit.mp4`: the claim names its assertions `self#jumbf=c2pa/<manifest>/c2pa.assertions/…`
    /// (absolute, no leading slash); c2pa-rs resolves them from the store's root.
    @Test func absoluteAssertionURIWithoutSlash() throws {
        var b = try t.builder(timestamp: false)
        b.assertionURIForm = .absoluteWithoutSlash
        let file = try b.signMP4(try t.media("mp4"))
        #expect(t.index(of: Array("self#jumbf=c2pa/urn:c2pa:".utf8), in: file) != nil)
        let r = try agree(file, "absolute URIs without slash")
        #expect(r.integrity == .intact, "\(r.failure)")
        #expect(r.codes.contains("assertion.bmffHash.match") && !r.codes.contains("assertion.missing"))
        #expect(r.codes.filter { $0 == "assertion.hashedURI.match" }.count == 2)
    }

    /// c2pa-rs refuses a BMFF hash whose subsets are out of order or overlap (`malformed`).
    @Test func overlappingSubsetsAreMalformed() throws {
        var template = BMFFHashAssertion(version: 2, hash: nil)
        template.exclusions.append(.init(xpath: "/moov/trak/mdia/minf/stbl/stco", subset: [.init(offset: 16, length: 8),
                                                                                              .init(offset: 20, length: 4)]))
        let file = try t.builder(timestamp: false).signMP4(try t.media("mp4"), bmffHash: template)
        let r = try agree(file, "overlapping subsets")
        #expect(failure(r, "assertion.bmffHash.malformed")?.explanation == "subsets overlap")
    }

    // MARK: - Merkle (fragmented MP4)

    /// `dashinit.mp4`: a merkle map with an `initHash` on an init segment alone (no `moof`) is a
    /// mismatch in c2pa-rs. On the whole fragmented file the `initHash` is checked over
    /// everything before the first `moof` (a flip there is caught by it), then the fragment
    /// count is checked against the merkle `uuid` boxes (none here: a mismatch in both).
    @Test func merkleInitHash() throws {
        let fragmented = try ffmpeg(["-movflags", "frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"], ext: "mp4")
        let boxes = try BMFFBox.parse(MemoryByteSource(fragmented))
        let moofs = boxes.filter { $0.type == "moof" }
        #expect(moofs.count >= 3)
        let initSegment = Array(fragmented[..<Int(moofs[0].range.lowerBound)])
        func template(_ initHash: [UInt8]) -> BMFFHashAssertion {
            var a = BMFFHashAssertion(version: 2, exclusions: [.init(xpath: "/ftyp"), .init(xpath: "/uuid", data: [
                .init(offset: 8, value: BMFFBox.c2paUserType)]), .init(xpath: "/mfra")], hash: nil)
            a.merkle = [.init(uniqueID: 1, localID: 1, count: UInt64(moofs.count), alg: "sha256", initHash: initHash,
                              hashes: [[UInt8](repeating: 7, count: 32)])]
            return a
        }
        let zeros = [UInt8](repeating: 0, count: 32)
        // The init segment alone.
        let signedInit = try t.builder(timestamp: false).signMP4(initSegment, bmffHash: template(zeros), computeHash: false)
        let ri = try agree(signedInit, "init segment with initHash")
        #expect(failure(ri, "assertion.bmffHash.mismatch")?.explanation == "initHash in a file without fragments (no moof)")
        // The whole fragmented file: sign once to learn the layout, then with the right initHash
        // (same lengths, so the same layout).
        let probe = try t.builder(timestamp: false).signMP4(fragmented, bmffHash: template(zeros), computeHash: false)
        let initHash = try #require(try template(zeros).initSegmentHash(over: MemoryByteSource(probe), algorithm: .sha256))
        let file = try t.builder(timestamp: false).signMP4(fragmented, bmffHash: template(initHash), computeHash: false)
        #expect(file.count == probe.count)
        let r = try agree(file, "fragmented with initHash")
        #expect(failure(r, "assertion.bmffHash.mismatch")?.explanation == "incorrect number of fragment hashes")
        let moov = try top(file, "moov")
        let rf = try agree(t.flip(file, at: Int(moov.range.upperBound) - 3), "fragmented, init segment flip")
        #expect(failure(rf, "assertion.bmffHash.mismatch")?.explanation == "initialization segment hash does not match")
    }

    // MARK: - Box forms

    /// `c.mov`: a QuickTime `meta` is a plain box (its body starts with `hdlr`, no FullBox
    /// version/flags). We walk into it at the same place c2pa-rs does, so an exclusion inside it
    /// selects the same box.
    @Test func quickTimeMeta() throws {
        var mov = try ffmpeg(["-metadata", "title=T", "-movflags", "use_metadata_tags", "-f", "mov"], ext: "mov")
        // ffmpeg writes an ISO-style meta (version/flags): drop those 4 bytes, as QuickTime writes it.
        let meta = try #require(BMFFBox.boxes(at: "/moov/udta/meta", in: try BMFFBox.parse(MemoryByteSource(mov))).first)
        #expect(meta.version == 0)
        let udta = try #require(BMFFBox.boxes(at: "/moov/udta", in: try BMFFBox.parse(MemoryByteSource(mov))).first)
        let moov = try top(mov, "moov")
        #expect(moov.range.upperBound == Int64(mov.count)) // nothing after moov moves
        mov.removeSubrange(Int(meta.range.lowerBound) + 8..<Int(meta.range.lowerBound) + 12)
        for b in [meta, udta, moov] { setSize(&mov, at: Int(b.range.lowerBound), Int(b.range.count) - 4) }
        let tree = try BMFFBox.parse(MemoryByteSource(mov))
        let qtMeta = try #require(BMFFBox.boxes(at: "/moov/udta/meta", in: tree).first)
        #expect(qtMeta.version == nil && qtMeta.children.map(\.type) == ["hdlr", "keys", "ilst"])
        try agree(mov, mime: "video/quicktime", "unsigned QuickTime")

        var template = BMFFHashAssertion(version: 2, hash: nil)
        template.exclusions.append(.init(xpath: "/moov/udta/meta/ilst"))
        let file = try t.builder(timestamp: false).signMP4(mov, bmffHash: template)
        let r = try agree(file, mime: "video/quicktime", "signed QuickTime")
        #expect(r.integrity == .intact, "\(r.failure)")
        let ilst = try #require(BMFFBox.boxes(at: "/moov/udta/meta/ilst", in: try BMFFBox.parse(MemoryByteSource(file))).first)
        let ilstFlip = try agree(t.flip(file, at: Int(ilst.range.upperBound) - 1), mime: "video/quicktime", "excluded ilst flip")
        #expect(ilstFlip.integrity == .intact)
        let keys = try #require(BMFFBox.boxes(at: "/moov/udta/meta/keys", in: try BMFFBox.parse(MemoryByteSource(file))).first)
        let keysFlip = try agree(t.flip(file, at: Int(keys.range.upperBound) - 1), mime: "video/quicktime", "keys flip")
        #expect(keysFlip.failureCodes == ["assertion.bmffHash.mismatch"])
    }

    /// A 64-bit `largesize` mdat (ffmpeg's `free` placeholder before `mdat` turned into the
    /// wider header, so no sample moves) and a last `mdat` of size 0 (to the end of the file).
    @Test func largesizeAndSizeZeroBoxes() throws {
        var large = try ffmpeg(["-f", "mp4"], ext: "mp4")
        let free = try top(large, "free"), mdat = try top(large, "mdat")
        #expect(free.range.count == 8 && free.range.upperBound == mdat.range.lowerBound)
        let at = Int(free.range.lowerBound)
        large.replaceSubrange(at..<(at + 16), with: be32(1) + Array("mdat".utf8)
                              + be64(Int64(mdat.range.count) + 8))
        let l = try top(large, "mdat")
        #expect(l.headerLength == 16 && l.range == Int64(at)..<mdat.range.upperBound)

        var zero = try ffmpeg(["-movflags", "+faststart", "-f", "mp4"], ext: "mp4")
        let last = try #require(try BMFFBox.parse(MemoryByteSource(zero)).last)
        #expect(last.type == "mdat")
        setSize(&zero, at: Int(last.range.lowerBound), 0)
        #expect(try top(zero, "mdat").range.upperBound == Int64(zero.count))

        for (name, media) in [("largesize mdat", large), ("size-0 mdat", zero)] {
            let file = try t.builder(timestamp: false).signMP4(media)
            let r = try agree(file, name)
            #expect(r.integrity == .intact, "\(name): \(r.failure)")
            let m = try top(file, "mdat")
            let flipped = try agree(t.flip(file, at: Int(m.range.upperBound) - 10), "\(name), flipped")
            #expect(flipped.failureCodes == ["assertion.bmffHash.mismatch"])
        }
    }

    /// A signed MP4 whose last box (`mdat`) was cut short: c2pa-rs hashes what is there (the mdat
    /// ends at the end of the file) and reports a mismatch; so do we, instead of `malformed`.
    @Test func truncatedMdatIsTampered() throws {
        let file = try t.builder(timestamp: false).signMP4(try ffmpeg(["-movflags", "+faststart", "-f", "mp4"], ext: "mp4"))
        #expect(try BMFFBox.parse(MemoryByteSource(file)).last?.type == "mdat")
        let cut = Array(file.dropLast(100))
        let r = try agree(cut, "truncated mdat")
        #expect(r.integrity == .tampered && r.failureCodes == ["assertion.bmffHash.mismatch"])
        // Any other box running past the end is still refused.
        var bad = file
        let moov = try top(file, "moov")
        setSize(&bad, at: Int(moov.range.lowerBound), file.count)
        #expect(throws: ContainerError.badBoxSize(offset: moov.range.lowerBound)) { try BMFFBox.parse(MemoryByteSource(bad)) }
    }

    /// c2pa-rs refuses boxes nested 32 deep ("Boxes are too deeply nested"); 31 is fine.
    @Test func nestingLimitMatchesC2paRs() throws {
        let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        func nested(_ depth: Int) -> [UInt8] {
            var b: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
            for _ in 0..<depth { b = be32(b.count + 8) + Array("moov".utf8) + b }
            return ftyp + b
        }
        let ok = try agree(nested(31), "free at depth 31")
        #expect(ok.integrity == .unsigned)
        // c2pa-python raises on a file it cannot parse (no report, so no state to compare).
        let deep = try t.validator().validate(source: MemoryByteSource(nested(32)))
        #expect(deep.integrity == .malformed && deep.reason == "container.depthExceeded")
        if C2PAReferenceAgreementTests.python != nil {
            let pki = try C2PAValidatorTests.pki.get()
            #expect(try peer.reference(nested(32), mime: "video/mp4", anchorsPEM: pki.root.pem)?.error?.contains("nested") == true)
            #expect(try peer.reference(nested(31), mime: "video/mp4", anchorsPEM: pki.root.pem)?.error?.contains("nested") == false)
        }
    }
}
