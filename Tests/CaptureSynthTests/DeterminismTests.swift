import Crypto
import Foundation
import Ground
import Synthesis
import TestLiterals
import Testing

/// Same seed → same media, records, claims and layout; only bytes inside the COSE_Sign1 differ
/// (ECDSA nonces of the claim signature, of the certificates in x5chain and of the TSA token).
@Suite struct DeterminismTests {
    func make(_ tag: String, seed: UInt64) throws -> (String, ExpectedDump) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("capture-synth-\(getpid())-\(tag)").path
        try? FileManager.default.removeItem(atPath: dir)
        let e = try DumpSynthesizer(options: SynthOptions(stills: 3, videos: 1, seed: seed, videoSeconds: 1, faults: [.sinkFailed])).write(to: dir)
        return (dir, e)
    }

    func digests(_ dir: String, _ e: ExpectedDump) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for c in e.captures {
            for f in c.files where f != c.deliveryFile {
                out[f] = MessageDigest.sha256([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + f))))
            }
        }
        return out
    }

    @Test func sameSeedSameDump() throws {
        let (a, ea) = try make("a", seed: 99)
        let (b, eb) = try make("b", seed: 99)
        #expect(ea == eb, "expected.json repeats: claim digests, key fingerprints, the video's chunk root and order")
        #expect(ea.captures.contains { $0.streamedChunks != nil })
        #expect(try digests(a, ea) == digests(b, eb), "every sidecar, ring frame and bundle repeats")
        for c in ea.captures {
            let x = [UInt8](try Data(contentsOf: URL(fileURLWithPath: a + "/" + c.deliveryFile)))
            let y = [UInt8](try Data(contentsOf: URL(fileURLWithPath: b + "/" + c.deliveryFile)))
            #expect(x.count == y.count, "same layout")
            // Differences stay inside the COSE_Sign1 (signature, certificates, token), never wider
            // than its fixed reserve; the claim digest is in expected.json and already equal.
            let differing = zip(x, y).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            let first = try #require(differing.first), last = try #require(differing.last)
            #expect(last - first < DumpSynthesizer.signatureReserve, "differences span \(first)...\(last)")
        }
        let (_, ec) = try make("c", seed: 100)
        #expect(ec.devices.map(\.keyFingerprint) != ea.devices.map(\.keyFingerprint))
        #expect(ec.captures.map(\.claimSHA256) != ea.captures.map(\.claimSHA256))
    }
}
