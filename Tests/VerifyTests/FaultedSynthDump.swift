import Crypto
import Foundation
import Synthesis
@testable import Verify

/// A capture-synth dump with every fault (2 stills, 1 video of 1 s) written to a temporary
/// folder of its own, its captures, and a verifier trusting its roots: the reports the JSON
/// tests compare. The folder is removed when the dump is released.
final class FaultedSynthDump {
    let dir: String
    let captures: [CaptureLocation]
    let verifier: CaptureVerifier

    init(name: String, seed: UInt64) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        let options = SynthOptions(stills: 2, videos: 1, seed: seed, videoSeconds: 1, faults: SynthFault.allCases)
        let expected = try DumpSynthesizer(options: options).write(to: dir)
        verifier = CaptureVerifier(signerAnchors: try TrustAnchors(pemFile: dir + "/" + expected.signerRoot),
                                   tsaAnchors: try TrustAnchors(pemFile: dir + "/" + expected.tsaRoot))
        captures = try CaptureVerifier.discover(dir)
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }
}
