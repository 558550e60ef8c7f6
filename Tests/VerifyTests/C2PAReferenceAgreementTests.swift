import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// Our verdict against c2pa-python's (c2pa-rs) on the same files, given the same trust anchor:
/// integrity, trust and the failure codes must agree on every tamper class.
@Suite struct C2PAReferenceAgreementTests {
    static let python: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return [root.appendingPathComponent(".venv/bin/python").path, "/tmp/venvtest/bin/python"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let readerScript = #"""
    import c2pa, json, sys
    path, mime, anchors = sys.argv[1:4]
    settings = c2pa.Settings.from_dict({"verify": {"verify_trust": True},
                                        "trust": {"trust_anchors": open(anchors).read()}})
    try:
        with open(path, "rb") as f:
            r = c2pa.Reader(mime, f, context=c2pa.Context(settings))
            vr = json.loads(r.json()).get("validation_results", {}).get("activeManifest", {})
            print(json.dumps({"state": r.get_validation_state(),
                              "failure": [x["code"] for x in vr.get("failure", [])],
                              "other": [x["code"] for x in vr.get("success", []) + vr.get("informational", [])]}))
    except Exception as e:
        print(json.dumps({"state": "error", "error": str(e), "failure": []}))
    """#

    /// Signs with c2pa-python: `sign IN OUT MIME CHAIN_PEM KEY_PEM` (ES256, c2pa-rs's own layout).
    static let signerScript = #"""
    import c2pa, sys
    src, dst, mime, chain, key = sys.argv[1:6]
    signer = c2pa.Signer.from_info(c2pa.C2paSignerInfo(b"es256", open(chain, "rb").read(), open(key, "rb").read(), None))
    b = c2pa.Builder({"claim_generator_info": [{"name": "c2pa-python-peer", "version": "1"}], "title": "peer",
                      "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [{"action": "c2pa.created",
                          "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}}]})
    with open(src, "rb") as s, open(dst, "w+b") as d:
        b.sign(signer, mime, s, d)
    """#

    func signWithC2paRs(_ bytes: [UInt8], mime: String, pki: C2PAValidatorTests.PKI) throws -> [UInt8]? {
        guard let python = Self.python else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-peer-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ext = mime == "image/jpeg" ? "jpg" : "mp4"
        let (src, dst) = (dir.appendingPathComponent("in.\(ext)"), dir.appendingPathComponent("out.\(ext)"))
        try Data(bytes).write(to: src)
        try (pki.leaf.pem + pki.root.pem).write(to: dir.appendingPathComponent("chain.pem"), atomically: true, encoding: .utf8)
        try pki.leafKey.pemPKCS8.write(to: dir.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        try Self.signerScript.write(to: dir.appendingPathComponent("sign.py"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [dir.appendingPathComponent("sign.py").path, src.path, dst.path, mime,
                       dir.appendingPathComponent("chain.pem").path, dir.appendingPathComponent("key.pem").path]
        try p.run()
        p.waitUntilExit()
        return [UInt8](try Data(contentsOf: dst))
    }

    /// Files c2pa-rs signs (JPEG with its data hash, MP4 with its BMFF v3 hash): we agree on the
    /// intact file and on a media flip.
    @Test func c2paRsSignedFilesAgree() throws {
        guard Self.python != nil else { print("no Python venv with c2pa-python: skipped"); return }
        let t = C2PAValidatorTests()
        let pki = try C2PAValidatorTests.pki.get()
        let v = try t.validator()
        for (kind, mime) in [("jpg", "image/jpeg"), ("mp4", "video/mp4")] {
            let signed = try #require(try signWithC2paRs(try t.media(kind), mime: mime, pki: pki))
            let flipped = t.flip(signed, at: signed.count - 30)
            for (name, bytes) in [("\(kind) intact", signed), ("\(kind) media flip", flipped)] {
                let r = v.validate(source: MemoryByteSource(bytes))
                let ref = try #require(try reference(bytes, mime: mime, anchorsPEM: pki.root.pem))
                #expect(ours(r) == ref.state, "\(name): ours \(r.integrity)/\(r.trust) \(r.failureCodes), c2pa-rs \(ref.state) \(ref.failure)")
                #expect(Set(r.failureCodes) == Set(ref.failure), "\(name)")
            }
            let r = v.validate(source: MemoryByteSource(signed))
            #expect(r.integrity == .intact && r.trust == .trusted)
            #expect(r.codes.contains(kind == "jpg" ? "assertion.dataHash.match" : "assertion.bmffHash.match"))
        }
    }

    /// Our `sigTst2` (RFC 3161 token from a local TSA over the v2 imprint input) as c2pa-rs sees it.
    @Test func timestampedFileAgrees() throws {
        guard Self.python != nil else { print("no Python venv with c2pa-python: skipped"); return }
        let t = C2PAValidatorTests()
        let pki = try C2PAValidatorTests.pki.get()
        let file = try t.builder(timestamp: true).signJPEG(try t.media("jpg"))
        let r = try t.validator().validate(source: MemoryByteSource(file))
        // c2pa-rs given both roots as anchors (it checks the TSA against the same list).
        let ref = try #require(try reference(file, mime: "image/jpeg", anchorsPEM: pki.root.pem + pki.tsaRoot.pem))
        #expect(ours(r) == ref.state, "ours \(r.codes), c2pa-rs \(ref.state) \(ref.failure) \(ref.other ?? [])")
        #expect(Set(r.failureCodes) == Set(ref.failure))
        #expect((ref.other ?? []).contains("timeStamp.validated"), "\(ref.other ?? [])")
        #expect(r.timestamp.state == "validated")
    }

    struct Reference: Decodable {
        let state: String
        let failure: [String]
        let other: [String]?
        let error: String?
    }

    func reference(_ bytes: [UInt8], mime: String, anchorsPEM: String) throws -> Reference? {
        guard let python = Self.python else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-agree-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(mime == "image/jpeg" ? "f.jpg" : "f.mp4")
        try Data(bytes).write(to: file)
        try anchorsPEM.write(to: dir.appendingPathComponent("anchors.pem"), atomically: true, encoding: .utf8)
        try Self.readerScript.write(to: dir.appendingPathComponent("read.py"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [dir.appendingPathComponent("read.py").path, file.path, mime, dir.appendingPathComponent("anchors.pem").path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return try JSONDecoder().decode(Reference.self, from: data)
    }

    /// c2pa-rs state → (integrity, trust) in our words.
    func ours(_ r: C2PAReport) -> String {
        switch r.integrity {
        case .intact: r.trust == .trusted ? "Trusted" : "Valid"
        case .tampered, .malformed: "Invalid"
        case .unsigned: "error"
        }
    }

    @Test func tamperClassesAgreeWithC2paRs() throws {
        guard Self.python != nil else { print("no Python venv with c2pa-python: skipped"); return }
        let t = C2PAValidatorTests()
        let pki = try C2PAValidatorTests.pki.get()
        let anchors = pki.root.pem
        let v = try t.validator()
        let jpeg = try t.builder(timestamp: false).signJPEG(try t.media("jpg"))
        let mp4 = try t.builder(timestamp: false).signMP4(try t.media("mp4"), bmffVersion: 2)
        let mdat = try #require(try BMFFBox.parse(MemoryByteSource(mp4)).first { $0.type == "mdat" })
        let title = try #require(t.index(of: Array("TITLE-MARKER".utf8), in: jpeg))
        let action = try #require(t.index(of: Array("jumbf manifest".utf8), in: jpeg))
        let store = try #require({ if case .found(let l) = try JPEGContainer.manifest(in: MemoryByteSource(jpeg)) { l } else { nil } }())
        let cose = try COSESign1(parsing: try #require(try ManifestStore(parsing: store.storeBytes).activeManifest?.signatureBytes))
        let sig = try #require(t.index(of: cose.signature, in: jpeg))
        let leafAt = try #require(t.index(of: pki.leaf.der, in: jpeg))
        let boxes = try BMFFBox.parse(MemoryByteSource(mp4))
        let ftyp = try #require(boxes.first { $0.type == "ftyp" })
        let cases: [(String, [UInt8], String)] = [
            ("certificate flip (leaf subject area)", t.flip(jpeg, at: leafAt + 60), "image/jpeg"),
            ("certificate flip (leaf signature)", t.flip(jpeg, at: leafAt + pki.leaf.der.count - 5), "image/jpeg"),
            ("ftyp flip", t.flip(mp4, at: Int(ftyp.range.lowerBound) + 9), "video/mp4"),
            ("intact jpeg", jpeg, "image/jpeg"),
            ("media flip", t.flip(jpeg, at: jpeg.count - 20), "image/jpeg"),
            ("claim flip", t.flip(jpeg, at: title + 2), "image/jpeg"),
            ("signature flip", t.flip(jpeg, at: sig + 5), "image/jpeg"),
            ("assertion flip", t.flip(jpeg, at: action + 3), "image/jpeg"),
            ("truncated", Array(jpeg.prefix(jpeg.count - 100)), "image/jpeg"),
            ("intact mp4", mp4, "video/mp4"),
            ("mdat flip", t.flip(mp4, at: Int(mdat.range.lowerBound) + 100), "video/mp4"),
        ]
        var checkedTrust = 0, checkedTamperedTrust = 0
        for (name, bytes, mime) in cases {
            let r = v.validate(source: MemoryByteSource(bytes))
            let ref = try #require(try reference(bytes, mime: mime, anchorsPEM: anchors))
            print("agreement \(name): \(r.integrity)/\(r.trust) \(r.failureCodes) | c2pa-rs \(ref.state) \(ref.failure)")
            #expect(ours(r) == ref.state, "\(name): ours \(r.integrity)/\(r.trust) \(r.failureCodes), c2pa-rs \(ref.state) \(ref.failure) \(ref.error ?? "")")
            #expect(Set(r.failureCodes) == Set(ref.failure), "\(name): ours \(r.failureCodes), c2pa-rs \(ref.failure)")
            // Signer trust as c2pa-rs states it, on tampered files too (a broken signature does
            // not make the credential untrusted).
            if let refTrust = trust(ref) {
                #expect(r.trust == refTrust, "\(name): trust ours \(r.trust), c2pa-rs \(refTrust)")
                checkedTrust += 1
                if r.integrity != .intact { checkedTamperedTrust += 1 }
            }
        }
        // The comparison must really have run, tampered files included.
        #expect(checkedTrust >= 8 && checkedTamperedTrust >= 5, "trust compared on \(checkedTrust) files, \(checkedTamperedTrust) tampered")
    }

    /// c2pa-rs's signer-trust verdict from its codes, when it states one.
    func trust(_ ref: Reference) -> C2PAReport.Trust? {
        if (ref.other ?? []).contains("signingCredential.trusted") { return .trusted }
        if ref.failure.contains("signingCredential.untrusted") { return .untrusted }
        return nil
    }
}
