import C2PA
import CaptureFormat
import Crypto
import Foundation

extension SynthContext {
    func buildVideo(_ plan: DumpSynthesizer.Plan) throws -> [ExpectedDump.Capture] {
        throw SynthError("synth.internal", "videos not yet")
    }
}
