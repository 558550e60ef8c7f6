import C2PA
import CaptureFormat
import Crypto
import Foundation
import Ground
@testable import Indexer
import TestLiterals
import Testing
import Verify

/// `exhibit-archive verify`: JSON field names as scripts read them, text blocks, exit codes.
@Suite struct VerifyCommandTests {
    /// A dump with one signed still (record + context tree + a short bundle, one sidecar) and
    /// the signer's root as PEM.
    final class Dump {
        let scratch = Scratch()
        var root: String { scratch.path + "/dump" }
        var folder: String { root + "/captures/c1" }
        var pem: String { scratch.path + "/root.pem" }

        init() throws {
            try FileManager.default.createDirectory(atPath: folder + "/evidence", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder + "/disclosure", withIntermediateDirectories: true)
            let start = Date(timeIntervalSinceNow: -86_400), end = Date(timeIntervalSinceNow: 86_400 * 30)
            let rootKey = try PrivateKey.generate(.ec(.p256))
            let rootCert = try CertificateBuilder(commonName: "CLI Root", serial: 1, notBefore: start, notAfter: end,
                                                  extensions: CertificateBuilder.rootCAExtensions).selfSigned(key: rootKey)
            let key = try PrivateKey.generate(.ec(.p256))
            let leaf = try CertificateBuilder(commonName: "CLI Device", organization: "Exhibit", serial: 2, notBefore: start,
                                              notAfter: end, extensions: CertificateBuilder.c2paSignerExtensions)
                .issued(publicKey: key.publicKey, issuer: rootCert, issuerKey: rootKey)
            let b64 = Data(rootCert.der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            _ = FileManager.default.createFile(atPath: pem, contents: Data("-----BEGIN CERTIFICATE-----\n\(b64)\n-----END CERTIFICATE-----\n".utf8))

            let audio = Array("audio bytes".utf8)
            _ = FileManager.default.createFile(atPath: folder + "/evidence/audio.caf", contents: Data(audio))
            let device = "/var/mobile/Documents/captures/c1/evidence/"
            let record = CaptureRecord(
                appVersion: AppVersion("0.25.3")!, mediaKind: .still, captureTime: CaptureTime("2026-11-30T14:03")!,
                captureToSignatureMs: 1800, sensorIntervalCv: nil, poseTrace: nil, streamedChunks: nil,
                evidence: CaptureEvidence(rawPcm: .collected(path: device + "audio.caf", sha256: ContentID.sha256(of: audio)),
                                          sensorLog: .failed, ringBufferDir: .neverRecorded),
                depth: nil, mainsHz: MainsHz(hz: 50, exposureDurationS: nil), lens: nil, secondView: nil)
            let seed = [UInt8](repeating: 3, count: 32)
            let (claims, never) = try ClaimSchema.partition(["location.country": "DE", "time.year": "2026"])
            let commitment = try ContextCommitment.commit(claims: claims, masterSeed: seed, neverRecorded: never)
            let bundle = try commitment.openSubset(.short, claims: claims, masterSeed: seed)
            _ = FileManager.default.createFile(atPath: folder + "/disclosure/short.bundle.json", contents: bundle.encodedJSON())

            let signer = ManifestBuilder.Signer(algorithm: .es256, certificateChain: [leaf.der],
                                                sign: { try key.sign($0, algorithm: .es256) }, timestamp: nil)
            let actions = CBOR.textMap([("actions", .array([.textMap([("action", .text("c2pa.created")),
                ("digitalSourceType", .text("http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"))])]))])
            let builder = ManifestBuilder(manifestLabel: "urn:c2pa:00000000-0000-4000-8000-000000000001", instanceID: "xmp:iid:1",
                                          generatorName: "Exhibit Capture",
                                          assertions: [("c2pa.actions.v2", actions), (CaptureRecord.assertionLabel, record.cbor),
                                                       (ContextTreeAssertion.label, commitment.assertion.cbor)],
                                          signer: signer)
            let jpeg = try builder.signJPEG(try Self.plainJPEG(scratch))
            _ = FileManager.default.createFile(atPath: folder + "/IMG_1.jpg", contents: Data(jpeg))
        }

        static func plainJPEG(_ s: Scratch) throws -> [UInt8] {
            let out = s.path + "/plain.jpg"
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            p.arguments = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=1", "-frames:v", "1", out]
            try p.run()
            p.waitUntilExit()
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        }
    }

    func objects(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func jsonFieldsAreThePublicNames() throws {
        let d = try Dump()
        let r = cli(["verify", "--json", "--trust", d.pem, d.root])
        #expect(r.code == .success, "\(r.err)")
        let lines = try objects(r.out)
        #expect(lines.count == 1)
        let o = try #require(lines.first)
        for key in ["path", "sha256", "size", "recordId", "kind", "integrity", "signer", "timestamp", "captureTime", "timeRung",
                    "statusCodes", "sidecars", "unreferenced", "disclosure", "streamedChunks", "context", "limits", "files"] {
            #expect(o[key] != nil, "missing \(key)")
        }
        #expect(o["integrity"] as? String == "intact")
        #expect(o["kind"] as? String == "still")
        #expect(o["captureTime"] as? String == "2026-11-30T14:03")
        #expect(o["timeRung"] as? String == "minute")
        let signer = try #require(o["signer"] as? [String: Any])
        #expect(signer["trust"] as? String == "trusted")
        #expect((signer["keyFingerprint"] as? String)?.count == 64)
        #expect((signer["subject"] as? String)?.contains("CLI Device") == true)
        #expect(signer["issuer"] != nil)
        #expect((o["timestamp"] as? [String: Any])?["state"] as? String == "absent")
        let codes = try #require(o["statusCodes"] as? [String: Any])
        #expect(Set(codes.keys) == ["success", "informational", "failure"])
        #expect(((codes["success"] as? [[String: Any]]) ?? []).contains { $0["code"] as? String == "claimSignature.validated" })
        let sidecars = try #require(o["sidecars"] as? [[String: Any]])
        #expect(sidecars.map { $0["sink"] as? String ?? "" } == ["audio", "sensors", "ring", "depth", "second-view"])
        #expect(sidecars.map { $0["state"] as? String ?? "" } == ["verified", "failed", "never-recorded", "never-recorded", "never-recorded"])
        #expect(sidecars[0]["committedSha256"] as? String == sidecars[0]["actualSha256"] as? String)
        #expect(sidecars[0]["file"] as? String == "captures/c1/evidence/audio.caf")
        let disclosure = try #require(o["disclosure"] as? [[String: Any]])
        #expect(disclosure.count == 1)
        #expect(disclosure[0]["file"] as? String == "captures/c1/disclosure/short.bundle.json")
        #expect(disclosure[0]["profile"] as? String == "short")
        #expect(disclosure[0]["result"] as? String == "verified")
        #expect((disclosure[0]["failures"] as? [Any])?.isEmpty == true)
        #expect((o["streamedChunks"] as? [String: Any])?["state"] as? String == "absent")
        #expect(((o["limits"] as? [String]) ?? []).contains { $0.hasPrefix("mainsHz:") })
        let files = try #require(o["files"] as? [[String: Any]])
        #expect(Set(files.compactMap { $0["role"] as? String }) == ["media", "audio", "bundle"])
        #expect(files.allSatisfy { Set($0.keys) == ["role", "path", "relativePath", "sha256", "size"] })
        // The line decodes as the contract type.
        let dec = JSONDecoder()
        dec.dateDecodingStrategy = .iso8601
        let report = try dec.decode(CaptureReport.self, from: Data(r.out.split(separator: "\n")[0].utf8))
        #expect(report.integrity == .intact && report.recordId?.hex == o["recordId"] as? String)
    }

    @Test func parallelJobsPrintInDiscoveryOrder() throws {
        let d = try Dump()
        for i in 2...6 { try FileManager.default.copyItem(atPath: d.folder, toPath: d.root + "/captures/c\(i)") }
        let one = cli(["verify", "--json", "--jobs", "1", "--trust", d.pem, d.root])
        let many = cli(["verify", "--json", "--jobs", "4", "--trust", d.pem, d.root])
        #expect(one.code == .success && many.code == .success)
        let paths = try objects(many.out).map { $0["path"] as? String ?? "" }
        #expect(paths == (1...6).map { "\(EvidenceLayout.normalize(d.root))/captures/c\($0)/IMG_1.jpg" })
        #expect(one.out == many.out)
        #expect(cli(["verify", "--jobs", "0", d.root]).code == .usage)
    }

    @Test func noMediaSkipsOnlyTheMediaMeasurements() throws {
        let d = try Dump()
        let full = try objects(cli(["verify", "--json", "--trust", d.pem, d.root]).out)
        let lean = try objects(cli(["verify", "--json", "--no-media", "--trust", d.pem, d.root]).out)
        let f = try #require(full.first), l = try #require(lean.first)
        #expect(f["media"] != nil)
        #expect(l["media"] == nil && l["parallax"] == nil)
        // Everything else is the same finding for finding.
        for key in ["recordId", "integrity", "sha256", "captureTime", "timeRung"] {
            #expect(f[key] as? String == l[key] as? String, "\(key)")
        }
        #expect(NSDictionary(dictionary: f["statusCodes"] as? [String: Any] ?? [:])
                    .isEqual(to: l["statusCodes"] as? [String: Any] ?? [:]))
        #expect((f["sidecars"] as? [Any])?.count == (l["sidecars"] as? [Any])?.count)
    }

    @Test func textBlockAndExitCodes() throws {
        let d = try Dump()
        // Without the anchor: untrusted, still exit 0 (trust alone is not attention).
        let plain = cli(["verify", d.folder])
        #expect(plain.code == .success)
        #expect(plain.out.contains("  integrity:           intact\n"))
        #expect(plain.out.contains("; untrusted\n"))
        #expect(plain.out.contains("  capture time:        2026-11-30T14:03 @ minute\n"))
        #expect(plain.out.contains("  sidecar audio:       verified evidence/audio.caf\n"))
        #expect(plain.out.contains("  disclosure:          disclosure/short.bundle.json short verified"))
        #expect(!plain.out.lowercased().contains("fake") && !plain.out.lowercased().contains("authentic"))

        // A changed sidecar: exit 1; a missing path is an item with its error and the run goes on.
        _ = FileManager.default.createFile(atPath: d.folder + "/evidence/audio.caf", contents: Data("changed".utf8))
        let bad = cli(["verify", "--json", d.scratch.path + "/nope", d.folder + "/IMG_1.jpg"])
        #expect(bad.code == .failure)
        let lines = try objects(bad.out)
        #expect(lines.count == 2)
        #expect((lines[0]["error"] as? [String: Any])?["code"] as? String == "discover.notFound")
        #expect((lines[1]["sidecars"] as? [[String: Any]])?.first?["state"] as? String == "mismatch")

        // Usage errors.
        #expect(cli(["verify"]).code == .usage)
        #expect(cli(["verify", "--trust", d.scratch.path + "/nope.pem", d.folder]).code == .usage)
    }
}

