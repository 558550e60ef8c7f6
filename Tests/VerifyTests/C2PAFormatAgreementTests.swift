import C2PA
import Crypto
import Foundation
import Testing
@testable import Verify

/// Every format of issue 16 against c2pa-rs (c2pa-python 0.38.1, tests/peers/format_fixtures.py):
/// c2pa-rs signs one file per format (ES256; PNG also ES384, ES512, PS256, Ed25519; a remote-
/// manifest file per format that carries XMP), the test makes the tampered copies (a flip in the
/// media data, in the claim, in the signature, the manifest stripped) and signs one file per
/// format with our writer, then both verifiers read every file: integrity state, trust and the
/// failure-code set must be equal. One Python process signs, one reads.
@Suite struct C2PAFormatAgreementTests {
    struct Signed: Decodable {
        let name: String
        let path: String
        let alg: String
        let remote: Bool
        let error: String?
    }

    struct SignRun: Decodable {
        let anchors: String
        let remoteURL: String
        let files: [Signed]
    }

    struct Verdict: Decodable {
        let path: String
        let state: String
        let failure: [String]
        let success: [String]
        let informational: [String]
        let error: String?
    }

    struct ReadRun: Decodable { let files: [Verdict] }

    /// What a case must give (ours), beyond agreeing with c2pa-rs. `intactNoting`: intact and
    /// trusted with that informational code of ours (the store-flip classes).
    enum Expect { case intact, intactNoting(String), tampered(String), unsigned, remote }

    struct Case {
        let name: String
        let bytes: [UInt8]
        let format: ContainerFormat
        let expect: Expect
    }

    /// The formats whose c2pa-rs writer embeds a remote reference in XMP: all of them (PDF in the
    /// catalog's `/Metadata` stream).
    static let remoteFormats: [ContainerFormat] = [.png, .webp, .wav, .avi, .tiff, .gif, .svg, .jxl, .mp3, .flac, .pdf]

    static func store(of file: [UInt8]) throws -> [UInt8] {
        guard case .found(let loc) = try AssetContainer.read(MemoryByteSource(file)).lookup else { throw CocoaError(.fileReadCorruptFile) }
        return loc.storeBytes
    }

    static func flip(_ b: [UInt8], at i: Int) -> [UInt8] {
        var c = b
        c[i] ^= 0x01
        return c
    }

    /// The store with the first character of the claim's `instanceID` flipped (the CBOR stays valid).
    static func claimFlipped(_ store: [UInt8]) throws -> [UInt8] {
        let m = try FormatMedia.need(try ManifestStore(parsing: store).activeManifest)
        let claim = Array(try FormatMedia.need(m.claimBytes))
        let key = Array("instanceID".utf8) + [0x78, 0x2C] + Array("xmp.iid:".utf8) // text(44) "xmp.iid:<uuid>"
        let k = try FormatMedia.need((0...(claim.count - key.count)).first { claim[$0..<($0 + key.count)].elementsEqual(key) })
        let at = try FormatMedia.need(index(of: claim, in: store))
        return flip(store, at: at + k + key.count)
    }

    /// The store with the last byte of the COSE signature flipped.
    static func signatureFlipped(_ store: [UInt8]) throws -> [UInt8] {
        let m = try FormatMedia.need(try ManifestStore(parsing: store).activeManifest)
        let cose = try COSESign1(parsing: try FormatMedia.need(m.signatureBytes))
        let at = try FormatMedia.need(index(of: cose.signature, in: store))
        return flip(store, at: at + cose.signature.count - 1)
    }

    static func index(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= hay.count else { return nil }
        return (0...(hay.count - needle.count)).first { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The four tamper classes of a signed file.
    static func tampers(of file: [UInt8], name: String, format f: ContainerFormat) throws -> [Case] {
        let store = try store(of: file)
        return [
            Case(name: "\(name) media flip", bytes: flip(file, at: try FormatMedia.mediaByte(in: file, format: f)), format: f,
                 expect: .tampered("assertion.dataHash.mismatch")),
            Case(name: "\(name) claim flip", bytes: try ManifestBuilder.replaceStore(try claimFlipped(store), in: file, format: f),
                 format: f, expect: .tampered("claimSignature.mismatch")),
            Case(name: "\(name) signature flip", bytes: try ManifestBuilder.replaceStore(try signatureFlipped(store), in: file, format: f),
                 format: f, expect: .tampered("claimSignature.mismatch")),
            Case(name: "\(name) stripped", bytes: try ManifestBuilder.strip(file, format: f), format: f, expect: .unsigned),
        ]
    }

    @Test func everyFormatAgreesWithC2paRs() throws {
        guard let python = C2PAReferenceAgreementTests.python else { print("no Python venv with c2pa-python: skipped"); return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-formats-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("cases"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ n: String) -> URL { dir.appendingPathComponent(n) }

        // c2pa-rs signs.
        var specs: [String] = []
        for f in FormatMedia.formats {
            try Data(try FormatMedia.unsigned(f)).write(to: file("plain.\(FormatMedia.ext(f))"))
            let src = file("plain.\(FormatMedia.ext(f))").path
            specs.append("\(src):\(FormatMedia.mime(f)):es256:peer.\(FormatMedia.ext(f))")
            if Self.remoteFormats.contains(f) { specs.append("\(src):\(FormatMedia.mime(f)):es256:remote.\(FormatMedia.ext(f)):remote") }
        }
        for alg in ["es384", "es512", "ps256", "ed25519"] {
            specs.append("\(file("plain.png").path):image/png:\(alg):peer-\(alg).png")
        }
        let signed = try JSONDecoder().decode(SignRun.self, from: try PeerScript.run(python, script: "format_fixtures.py",
                                                                                     ["sign", file("peer").path] + specs))
        for s in signed.files { #expect(s.error == nil, "c2pa-rs could not sign \(s.name): \(s.error ?? "")") }

        // The cases: c2pa-rs's files and their tampers, ours and a media flip of ours.
        let t = C2PAValidatorTests()
        let ourBuilder = try t.builder(timestamp: false)
        var cases: [Case] = []
        for s in signed.files where s.error == nil {
            let f = try #require(FormatMedia.formats.first { s.name.hasSuffix("." + FormatMedia.ext($0)) })
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.path)))
            if s.remote {
                cases.append(Case(name: "\(f.rawValue) remote", bytes: bytes, format: f, expect: .remote))
                continue
            }
            cases.append(Case(name: "\(f.rawValue) \(s.alg)", bytes: bytes, format: f, expect: .intact))
            if s.alg == "es256" {
                do { cases += try Self.tampers(of: bytes, name: "\(f.rawValue) es256", format: f) } catch {
                    Issue.record("\(f.rawValue): tampers of c2pa-rs's file: \(error)")
                }
                do { cases += try Self.storeFlips(of: bytes, name: "\(f.rawValue) es256", format: f) } catch {
                    Issue.record("\(f.rawValue): store flips of c2pa-rs's file: \(error)")
                }
            }
        }
        for f in FormatMedia.formats {
            let ours = try ourBuilder.sign(try FormatMedia.unsigned(f), format: f)
            cases.append(Case(name: "\(f.rawValue) ours", bytes: ours, format: f, expect: .intact))
            cases.append(Case(name: "\(f.rawValue) ours media flip", bytes: Self.flip(ours, at: try FormatMedia.mediaByte(in: ours, format: f)),
                              format: f, expect: .tampered("assertion.dataHash.mismatch")))
        }

        // Both read every case, with the same anchors (c2pa-rs's PKI root and ours).
        let anchorsPEM = try String(contentsOfFile: signed.anchors, encoding: .utf8) + (try C2PAValidatorTests.pki.get()).root.pem
        try anchorsPEM.write(to: file("anchors.pem"), atomically: true, encoding: .utf8)
        var args = ["read", file("anchors.pem").path]
        for (i, c) in cases.enumerated() {
            let p = file("cases/\(i).\(FormatMedia.ext(c.format))")
            try Data(c.bytes).write(to: p)
            args.append("\(p.path):\(FormatMedia.mime(c.format))")
        }
        let peer = try JSONDecoder().decode(ReadRun.self, from: try PeerScript.run(python, script: "format_fixtures.py", args))
        try #require(peer.files.count == cases.count)
        let v = C2PAValidator(signerAnchors: try TrustAnchors(pem: anchorsPEM))
        let agree = C2PAReferenceAgreementTests()
        var rows: [String] = []
        for (c, ref) in zip(cases, peer.files) {
            let r = v.validate(source: MemoryByteSource(c.bytes))
            rows.append("\(c.name): ours \(r.integrity)/\(r.trust) \(r.failureCodes.sorted()) | c2pa-rs \(ref.state) \(ref.failure.sorted()) \(ref.error ?? "")")
            #expect(r.container == c.format.rawValue, "\(c.name): container \(r.container ?? "-")")
            #expect(agree.ours(r) == ref.state, "\(c.name): ours \(r.integrity) \(r.failureCodes), c2pa-rs \(ref.state) \(ref.failure) \(ref.error ?? "")")
            #expect(Set(r.failureCodes) == Set(ref.failure), "\(c.name): ours \(r.failureCodes), c2pa-rs \(ref.failure)")
            if ref.success.contains("signingCredential.trusted") { #expect(r.trust == .trusted, "\(c.name): trust") }
            if ref.failure.contains("signingCredential.untrusted") { #expect(r.trust == .untrusted, "\(c.name): trust") }
            switch c.expect {
            case .intact:
                #expect(r.integrity == .intact && r.trust == .trusted, "\(c.name): \(r.integrity) \(r.failureCodes)")
                #expect(r.codes.contains("assertion.dataHash.match"), "\(c.name)")
            case .intactNoting(let code):
                #expect(r.integrity == .intact && r.trust == .trusted, "\(c.name): \(r.integrity) \(r.failureCodes)")
                #expect(r.informational.contains { $0.code == code }, "\(c.name): informational \(r.informational.map(\.code))")
            case .tampered(let code):
                #expect(r.integrity == .tampered && r.failureCodes.contains(code), "\(c.name): \(r.integrity) \(r.failureCodes)")
            case .unsigned:
                #expect(r.integrity == .unsigned && r.reason == "none", "\(c.name): \(r.integrity) \(r.reason ?? "")")
            case .remote:
                #expect(r.integrity == .unsigned && r.informational.contains { $0.code == "manifest.inaccessible" && $0.url == signed.remoteURL },
                        "\(c.name): \(r.integrity) \(r.reason ?? "")")
                #expect(ref.error?.contains(signed.remoteURL) == true, "\(c.name): c2pa-rs \(ref.error ?? "")")
            }
        }
        print(rows.joined(separator: "\n"))
        #expect(cases.count >= 11 * 9 + 1 + 4 + 10, "\(cases.count) cases")
    }

    /// `CaptureVerifier` reads each format's file once (`HashingByteSource`): the content digest
    /// it reports is the file's SHA-256 whatever order the container reader reads in (a TIFF's
    /// IFD at the end first, a PDF's cross-reference table from its tail).
    @Test func captureVerifierDigestsEveryFormat() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-formats-digest-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pki = try C2PAValidatorTests.pki.get()
        var verifier = CaptureVerifier(signerAnchors: try TrustAnchors([pki.root]), tsaAnchors: .none)
        verifier.measuresMedia = false
        for f in FormatMedia.formats {
            let bytes = try C2PAValidatorTests().builder(timestamp: false).sign(try FormatMedia.unsigned(f), format: f)
            let path = dir.appendingPathComponent("signed.\(FormatMedia.ext(f))").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let r = verifier.verify(CaptureLocation(deliveryFile: path, captureFolder: nil, dumpRoot: dir.path))
            #expect(r.sha256?.hex == Hex.encode(MessageDigest.sha256(bytes)), "\(f)")
            #expect(r.integrity == .intact && r.kind == f.kind && r.container == f.rawValue, "\(f): \(r.integrity) \(r.kind)")
        }
    }
}
