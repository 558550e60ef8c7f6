import Foundation
import Ground
import Synthesis
import TestLiterals
import Testing

/// The shared dump read by c2pa-python (c2pa-rs) through tests/peers/c2pa_read.py with the
/// dump's own anchors: unfaulted stills and the video are valid and trusted (CA devices) or
/// untrusted (self-signed); the media, claim, signature and assertion faults carry c2pa-rs's
/// matching failure code; malleable and re-wrapped files stay intact.
@Suite struct C2PAPeerTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let python: String? = [repo.appendingPathComponent(".venv/bin/python").path, "/tmp/venvtest/bin/python"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let peerFaults: Set<String> = ["media-flip", "claim-flip", "signature-flip", "assertion-flip", "video-media-flip",
                                          "malleable-flip", "rewrapped", "truncated", "unsigned", "video-malleable-flip"]

    @Test(.enabled(if: python != nil, "c2pa-python venv not found")) func c2paRsAgrees() throws {
        let (dir, expected) = try DumpExpectationTests.dump.get()
        let chosen = expected.captures.filter { $0.faults.isEmpty || $0.faults.allSatisfy(Self.peerFaults.contains) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(Self.python))
        p.arguments = [Self.repo.appendingPathComponent("tests/peers/c2pa_read.py").path]
            + chosen.map { dir + "/" + $0.deliveryFile }
            + ["--trust", dir + "/" + expected.signerRoot, "--tsa-trust", dir + "/" + expected.tsaRoot]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == chosen.count)
        var sawTrusted = false, sawUntrusted = false, sawVideo = false
        for (c, line) in zip(chosen, lines) {
            let v = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let tag = "\(c.id) \(c.faults)"
            #expect(v["integrity"] as? String == c.integrity, "\(tag): \(line)")
            // Trust is the credential's verdict in both (a broken signature is integrity's finding).
            if let t = c.trust { #expect(v["trust"] as? String == t, "\(tag): \(line)") }
            let failures = ((v["failureCodes"] as? [String]) ?? []).sorted()
            #expect(failures == c.failureCodes, "\(tag): \(line)")
            if c.faults.isEmpty {
                #expect(v["validationState"] as? String == (c.trust == "trusted" ? "Trusted" : "Valid"), "\(tag)")
                #expect(v["timestamp"] as? String == (c.timestamp == "validated" ? "trusted" : "absent"), "\(tag): \(line)")
                sawTrusted = sawTrusted || c.trust == "trusted"
                sawUntrusted = sawUntrusted || c.trust == "untrusted"
                sawVideo = sawVideo || c.kind == "video"
            }
        }
        #expect(sawTrusted && sawUntrusted && sawVideo)
        #expect(Set(chosen.flatMap(\.faults)) == Self.peerFaults)
    }
}
