import CAV
import Foundation
import Ground
@testable import Media
import Testing
import TurboJPEG

/// `Scaler.scale` reuses idle libswscale contexts (`ScalerPool`, session 9): the pictures are
/// the ones a fresh context makes, whatever ran on the context before.
@Suite(.serialized) struct ScalerPoolTests {
    @Test func pooledContextsScaleAsFreshOnes() throws {
        let (dir, expected) = try SynthDumpTests.dump.get()
        var frames: [Frame] = []
        for c in expected.captures where c.kind == "still" && c.faults.isEmpty {
            let planes = try #require(try StillPicture.decodeDelivery(try MediaFixtures.bytes(dir + "/" + c.deliveryFile)))
            frames.append(try Frame(luma: planes))
            frames.append(try Frame(planes: planes))
        }
        #expect(frames.count >= 4)
        func pixels(_ f: Frame) -> [UInt8] { f.plane0(width: f.width, height: f.height) }
        // Twice over, alternating conversions, so later pictures meet contexts that scaled others.
        for _ in 0..<2 {
            for f in frames {
                for (w, h, fmt) in [(96, 64, AV_PIX_FMT_GRAY8), (240, 180, AV_PIX_FMT_YUVJ420P)] {
                    let pooled = try Scaler.scale(f, width: w, height: h, format: fmt)
                    let fresh = try Scaler.scale(f, width: w, height: h, format: fmt, pooled: false)
                    #expect(pixels(pooled) == pixels(fresh))
                }
            }
        }
        #expect(ScalerPool.count >= 1 && ScalerPool.count <= ScalerPool.perKey * ScalerPool.maxKeys)
    }
}
