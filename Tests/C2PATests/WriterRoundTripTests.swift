@testable import C2PA
import Crypto
import Foundation
import Ground
import TestLiterals
import Testing

/// Files we sign with our writers (key held by the Python peer) must read back with our parser
/// AND be judged valid by c2pa-python (c2pa-rs): signature validated, every hash matching.
@Suite struct WriterRoundTripTests {
    func builder(_ dir: URL) throws -> ManifestBuilder {
        let chain = pemCertificates(try String(contentsOf: dir.appendingPathComponent("chain.pem"), encoding: .utf8))
        let key = dir.appendingPathComponent("leaf.key").path
        let signer = ManifestBuilder.Signer(algorithm: .es256, certificateChain: chain) { tbs in
            try Fixtures.run(["sign", key], stdin: tbs)
        }
        let actions = CBOR.textMap([("actions", .array([.textMap([
            ("action", .text("c2pa.created")),
            ("digitalSourceType", .text("http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture")),
        ])]))])
        return ManifestBuilder(manifestLabel: "urn:c2pa:3f1c0a52-8d7e-4b8a-9c61-0e2f5a7d9b10",
                               instanceID: "xmp:iid:0c9d7f51-2b3a-4e7c-8f10-6a5b4c3d2e1f",
                               generatorName: "exhibit-archive-tests", generatorVersion: "0.1",
                               title: "roundtrip", assertions: [("c2pa.actions.v2", actions)], signer: signer)
    }

    func failureCodes(_ verdict: [String: Any]) -> [String] {
        let results = verdict["validation_results"] as? [String: Any]
        let active = results?["activeManifest"] as? [String: Any]
        return (active?["failure"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    func successCodes(_ verdict: [String: Any]) -> [String] {
        let results = verdict["validation_results"] as? [String: Any]
        let active = results?["activeManifest"] as? [String: Any]
        return (active?["success"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test func signedJPEGIsValidForC2paRs() throws {
        guard let dir = try Fixtures.directory(), let jpeg = try Fixtures.bytes("in.jpg") else { print(Fixtures.skipMessage); return }
        let out = try builder(dir).signJPEG(jpeg)
        // Ours reads it back.
        guard case .found(let loc) = try JPEGContainer.manifest(in: MemoryByteSource(out)) else {
            Issue.record("no store"); return
        }
        let store = try ManifestStore(parsing: loc.storeBytes)
        let m = try #require(store.activeManifest)
        let dhBox = try #require(m.assertion(labelled: "c2pa.hash.data"))
        let dh = try DataHashAssertion(cbor: try #require(try Manifest.cborContent(of: dhBox)))
        #expect(try dh.computeHash(over: MemoryByteSource(out), algorithm: .sha256) == dh.hash)
        // The media outside the segments is the original JPEG.
        let span = try #require(loc.span)
        #expect(Array(out[..<Int(span.lowerBound)]) + Array(out[Int(span.upperBound)...]) == jpeg)
        // c2pa-rs agrees.
        let path = dir.appendingPathComponent("ours.jpg")
        try Data(out).write(to: path)
        let verdict = try Fixtures.read(path.path, mime: "image/jpeg")
        #expect(verdict["validation_state"] as? String == "Valid")
        #expect(failureCodes(verdict) == ["signingCredential.untrusted"])
        let ok = successCodes(verdict)
        #expect(ok.contains("claimSignature.validated"))
        #expect(ok.contains("assertion.dataHash.match"))
        #expect(verdict["active_manifest"] as? String == m.label)
    }

    @Test func signedMP4IsValidForC2paRs() throws {
        guard let dir = try Fixtures.directory(), let mp4 = try Fixtures.bytes("in.mp4") else { print(Fixtures.skipMessage); return }
        for version in [2, 3] {
            let out = try builder(dir).signMP4(mp4, bmffVersion: version)
            guard case .found(let loc) = try BMFFContainer.manifest(in: MemoryByteSource(out)) else {
                Issue.record("no store"); return
            }
            let store = try ManifestStore(parsing: loc.storeBytes)
            let m = try #require(store.activeManifest)
            let box = try #require(m.assertion(labelled: "c2pa.hash.bmff.v\(version)"))
            let bh = try BMFFHashAssertion(label: try #require(box.label), cbor: try #require(try Manifest.cborContent(of: box)))
            #expect(try bh.computeHash(over: MemoryByteSource(out), algorithm: .sha256) == bh.hash)
            let path = dir.appendingPathComponent("ours-v\(version).mp4")
            try Data(out).write(to: path)
            let verdict = try Fixtures.read(path.path, mime: "video/mp4")
            #expect(verdict["validation_state"] as? String == "Valid", "v\(version)")
            #expect(failureCodes(verdict) == ["signingCredential.untrusted"], "v\(version)")
            #expect(successCodes(verdict).contains("assertion.bmffHash.match"), "v\(version)")
            // ffprobe-level sanity: chunk offsets were moved, so the media still decodes.
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            p.arguments = ["-v", "error", "-i", path.path, "-f", "null", "-"]
            let err = Pipe()
            p.standardError = err
            try p.run()
            let msg = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0 && msg.isEmpty, "\(String(decoding: msg, as: UTF8.self))")
        }
    }
}
