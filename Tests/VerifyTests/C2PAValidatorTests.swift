import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing
@testable import Verify

/// Files signed with our writers and a real PKI (CA → signer, separate TSA root), tampered the
/// ways c2pa-rs distinguishes, verified by `C2PAValidator`.
@Suite struct C2PAValidatorTests {
    final class PKI: Sendable {
        let rootKey: PrivateKey, root: Certificate
        let leafKey: PrivateKey, leaf: Certificate
        let tsaRoot: Certificate, tsa: TimeStampAuthority
        /// Every certificate valid from `start` to `end`, the signer's until `leafEnd` (default `end`).
        init(start: Date = Date(timeIntervalSinceNow: -86_400), end: Date = Date(timeIntervalSinceNow: 86_400 * 365),
             leafEnd: Date? = nil) throws {
            rootKey = try PrivateKey.generate(.ec(.p256))
            root = try CertificateBuilder(commonName: "C2PA Test Root", organization: "Exhibit", serial: 1, notBefore: start,
                                          notAfter: end, extensions: CertificateBuilder.rootCAExtensions).selfSigned(key: rootKey)
            leafKey = try PrivateKey.generate(.ec(.p256))
            leaf = try CertificateBuilder(commonName: "Device 7", organization: "Exhibit Devices", serial: 2, notBefore: start,
                                          notAfter: leafEnd ?? end, extensions: CertificateBuilder.c2paSignerExtensions)
                .issued(publicKey: leafKey.publicKey, issuer: root, issuerKey: rootKey)
            let tsaRootKey = try PrivateKey.generate(.ec(.p256))
            tsaRoot = try CertificateBuilder(commonName: "TSA Root", serial: 3, notBefore: start, notAfter: end,
                                             extensions: CertificateBuilder.rootCAExtensions).selfSigned(key: tsaRootKey)
            let tsaKey = try PrivateKey.generate(.ec(.p256))
            let tsaCert = try CertificateBuilder(commonName: "TSA", serial: 4, notBefore: start, notAfter: end,
                                                 extensions: CertificateBuilder.timeStampingExtensions)
                .issued(publicKey: tsaKey.publicKey, issuer: tsaRoot, issuerKey: tsaRootKey)
            tsa = TimeStampAuthority(certificate: tsaCert, key: tsaKey)
        }
    }

    static let pki = Result { try PKI() }

    func media(_ kind: String) throws -> [UInt8] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-verify-\(getpid())-in.\(kind)")
        if !FileManager.default.fileExists(atPath: out.path) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            p.arguments = kind == "jpg"
                ? ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=1", "-frames:v", "1", out.path]
                : ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i", "sine",
                   "-t", "1", "-c:v", "libx264", "-c:a", "aac", out.path]
            // Tests run in parallel: write to a private name, then move into place atomically.
            let tmp = out.deletingLastPathComponent().appendingPathComponent("\(UUID().uuidString).\(kind)")
            p.arguments = Array(p.arguments!.dropLast()) + [tmp.path]
            try p.run()
            p.waitUntilExit()
            if rename(tmp.path, out.path) != 0 { try? FileManager.default.removeItem(at: tmp) }
        }
        return [UInt8](try Data(contentsOf: out))
    }

    func builder(timestamp: Bool) throws -> ManifestBuilder {
        let pki = try Self.pki.get()
        let signer = ManifestBuilder.Signer(algorithm: .es256, certificateChain: [pki.leaf.der, pki.root.der],
                                            sign: { try pki.leafKey.sign($0, algorithm: .es256) },
                                            timestamp: timestamp ? { try pki.tsa.token(imprintOf: $0, at: Date(), serial: 42) } : nil)
        let actions = CBOR.textMap([("actions", .array([.textMap([
            ("action", .text("c2pa.created")),
            ("digitalSourceType", .text("http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture")),
        ])]))])
        return ManifestBuilder(manifestLabel: "urn:c2pa:6b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", instanceID: "xmp:iid:1",
                               generatorName: "exhibit-tests", title: "TITLE-MARKER",
                               assertions: [("c2pa.actions.v2", actions)], signer: signer)
    }

    func validator(signer: Bool = true, tsa: Bool = true) throws -> C2PAValidator {
        let pki = try Self.pki.get()
        return C2PAValidator(signerAnchors: signer ? try TrustAnchors([pki.root]) : .none,
                             tsaAnchors: tsa ? try TrustAnchors([pki.tsaRoot]) : .none)
    }

    func flip(_ b: [UInt8], at i: Int) -> [UInt8] {
        var c = b
        c[i] ^= 0x01
        return c
    }

    func index(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard needle.count <= hay.count else { return nil }
        return (0...(hay.count - needle.count)).first { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func intactTrustedJPEGWithTimestamp() throws {
        let file = try builder(timestamp: true).signJPEG(try media("jpg"))
        let r = try validator().validate(source: MemoryByteSource(file))
        #expect(r.integrity == .intact)
        #expect(r.trust == .trusted)
        #expect(r.failure == [])
        #expect(r.timestamp.state == "validated")
        #expect(r.timestamp.header == "sigTst2")
        for code in ["claimSignature.validated", "assertion.dataHash.match", "assertion.hashedURI.match",
                     "signingCredential.trusted", "timeStamp.validated"] {
            #expect(r.codes.contains(code), "\(code)")
        }
        #expect(r.signer?.keyFingerprint == (try Self.pki.get()).leaf.keyFingerprint)
        #expect(r.container == "jpeg")
        #expect(r.claimVersion == 2)

        // Untrusted TSA: only the timestamp finding degrades.
        let noTSA = try validator(tsa: false).validate(source: MemoryByteSource(file))
        #expect(noTSA.integrity == .intact && noTSA.trust == .trusted)
        #expect(noTSA.timestamp.state == "untrusted")
        #expect(noTSA.informational.map(\.code).contains("timeStamp.untrusted"))
        // No signer anchors: untrusted, still intact.
        let noAnchors = try validator(signer: false).validate(source: MemoryByteSource(file))
        #expect(noAnchors.integrity == .intact && noAnchors.trust == .untrusted)
        #expect(noAnchors.failureCodes == ["signingCredential.untrusted"])
    }

    @Test func tamperedJPEGs() throws {
        let original = try media("jpg")
        let file = try builder(timestamp: false).signJPEG(original)
        let v = try validator()
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(file)), let span = loc.span else {
            Issue.record("no store"); return
        }
        // Media byte flipped (in the scan data, outside the manifest).
        let media = v.validate(source: MemoryByteSource(flip(file, at: file.count - 20)))
        #expect(media.integrity == .tampered)
        #expect(media.failureCodes == ["assertion.dataHash.mismatch"])
        #expect(media.trust == .trusted)
        // Claim byte: inside the dc:title text.
        let t = try #require(index(of: Array("TITLE-MARKER".utf8), in: file))
        let claim = v.validate(source: MemoryByteSource(flip(file, at: t + 2)))
        #expect(claim.integrity == .tampered)
        #expect(claim.failureCodes.contains("claimSignature.mismatch"))
        #expect(claim.trust == .trusted)   // the credential still chains; integrity carries the break
        // Signature byte: inside the COSE signature bstr.
        let store = try ManifestStore(parsing: loc.storeBytes)
        let cose = try COSESign1(parsing: try #require(store.activeManifest?.signatureBytes))
        let sigStart = try #require(index(of: cose.signature, in: file))
        let sig = v.validate(source: MemoryByteSource(flip(file, at: sigStart + 5)))
        #expect(sig.failureCodes == ["claimSignature.mismatch"])
        #expect(sig.integrity == .tampered)
        // Assertion byte: inside the data-hash assertion's `name` text.
        let a = try #require(index(of: Array("jumbf manifest".utf8), in: file))
        let assertion = v.validate(source: MemoryByteSource(flip(file, at: a + 3)))
        #expect(assertion.failureCodes == ["assertion.hashedURI.mismatch"])
        #expect(assertion.integrity == .tampered)
        // Stripped manifest: the original JPEG.
        let stripped = v.validate(source: MemoryByteSource(original))
        #expect(stripped.integrity == .unsigned)
        // Garbage manifest: the store bytes overwritten (framing kept so the segments still parse).
        var garbage = file
        for i in (Int(span.lowerBound) + 60)..<(Int(span.lowerBound) + 200) { garbage[i] = 0x5A }
        let g = v.validate(source: MemoryByteSource(garbage))
        #expect(g.integrity == .malformed)
        #expect(g.failureCodes == ["claim.malformed"])
        // Truncated file: the data hash no longer covers the bytes.
        let truncated = v.validate(source: MemoryByteSource(Array(file.prefix(file.count - 100))))
        #expect(truncated.integrity == .tampered)
        #expect(truncated.failureCodes == ["assertion.dataHash.mismatch"])
        // Not an image at all.
        #expect(v.validate(source: MemoryByteSource(Array("hello".utf8))).integrity == .malformed)
    }

    @Test func mp4IntactAndTampered() throws {
        let v = try validator()
        for version in [2, 3] {
            let file = try builder(timestamp: true).signMP4(try media("mp4"), bmffVersion: version)
            let r = v.validate(source: MemoryByteSource(file))
            #expect(r.integrity == .intact, "v\(version): \(r.failure)")
            #expect(r.trust == .trusted)
            #expect(r.codes.contains("assertion.bmffHash.match"))
            #expect(r.container == "bmff")
            // A byte in mdat.
            let boxes = try BMFFBox.parse(MemoryByteSource(file))
            let mdat = try #require(boxes.first { $0.type == "mdat" })
            let m = v.validate(source: MemoryByteSource(flip(file, at: Int(mdat.range.lowerBound) + 100)))
            #expect(m.integrity == .tampered)
            #expect(m.failureCodes == ["assertion.bmffHash.mismatch"])
            // A byte in the free-box framing is excluded (c2pa-rs default exclusions): still intact.
            if let free = boxes.first(where: { $0.type == "free" }), free.range.count > 8 {
                let f = v.validate(source: MemoryByteSource(flip(file, at: Int(free.range.lowerBound) + 8)))
                #expect(f.integrity == .intact)
            }
        }
    }

    @Test func reportIsCodable() throws {
        let file = try builder(timestamp: true).signJPEG(try media("jpg"))
        let r = try validator().validate(source: MemoryByteSource(file))
        let back = try JSONDecoder().decode(C2PAReport.self, from: JSONEncoder().encode(r))
        #expect(back == r)
    }
}

extension C2PAValidatorTests {
    @Test func validatesFromAFileAndReportsIOErrors() throws {
        let file = try builder(timestamp: false).signMP4(try media("mp4"))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-verify-\(getpid())-\(UUID().uuidString).mp4")
        try Data(file).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try validator().validate(path: url.path)
        #expect(r.integrity == .intact && r.trust == .trusted)
        #expect(r.claimSHA256?.hex.count == 64)
        #expect(throws: ByteSourceError.self) { try validator().validate(path: "/nonexistent/x.mp4") }
    }
}
