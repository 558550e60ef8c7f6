import CaptureFormat
import Crypto
import Foundation
import Ground
@testable import Media
import Synthesis
import TestLiterals
import Testing
import Verify

/// The verifier's report carries the media evidence (CaptureVerifier+Media.swift) for a
/// capture-synth dump: facts of the delivery file and audio master, the streamed-chunk
/// recomputation of every video, the parallax of every still with a second view.
@Suite(.serialized) struct VerifierMediaTests {
    @Test func reportCarriesMediaEvidence() throws {
        let (dir, expected) = try SynthDumpTests.dump.get()
        let verifier = CaptureVerifier(signerAnchors: try TrustAnchors(pemFile: dir + "/" + expected.signerRoot),
                                       tsaAnchors: try TrustAnchors(pemFile: dir + "/" + expected.tsaRoot))
        let root = EvidenceLayout.normalize(dir)
        let locations = try CaptureVerifier.discover(dir)
        for c in expected.captures where c.faults.isEmpty {
            let loc = try #require(locations.first { $0.deliveryFile == root + "/" + c.deliveryFile })
            let r = verifier.verify(loc)
            let delivery = try #require(r.media?.first { $0.role == "media" })
            #expect(delivery.error == nil)
            if c.kind == "video" {
                #expect(delivery.facts?.streams.first { $0.type == "video" }?.codec == "h264")
                #expect(r.media?.contains { $0.role == "audio" && $0.facts?.streams.first?.sampleRate == 16000 } == true)
                let rec = try #require(r.streamedChunks?.recomputation)
                #expect(rec.state == .recomputed, "\(c.id): \(rec)")
                #expect(rec.rootRecorded?.hex == c.streamedChunks?.root)
                #expect(r.parallax == nil)
            } else {
                #expect(delivery.facts?.streams.first?.codec == "mjpeg")
                #expect(r.streamedChunks?.recomputation == nil)
                if let sv = c.secondView {
                    let p = try #require(r.parallax)
                    #expect(p.state == .measured)
                    #expect(abs((p.medianDisparityPx ?? 99) + sv.disparityAt96) <= 1)
                }
            }
            let json = try JSONEncoder().encode(r)
            #expect(try JSONDecoder().decode(CaptureReport.self, from: json) == r)
        }
        // Switched off, the report has none of it.
        var quiet = verifier
        quiet.measuresMedia = false
        let first = try #require(locations.first)
        let q = quiet.verify(first)
        #expect(q.media == nil && q.parallax == nil && q.streamedChunks?.recomputation == nil)
    }
}
