import Ground

@testable import Media
import TestLiterals
import Testing

@Suite struct ParallaxTests {
    func measure(_ a: GrayImage, _ b: GrayImage, calibration: SecondViewCalibration? = nil) throws -> ParallaxMeasurement {
        Parallax.measure(primary: MemoryByteSource(try SyntheticViews.jpeg(a)),
                         second: MemoryByteSource(try SyntheticViews.jpeg(b)), calibration: calibration)
    }

    /// A flat plane: one shift everywhere (20 px at 384 wide = 5 px at 96 wide).
    @Test func flatPlaneGivesItsOneShift() throws {
        let tex = SyntheticViews.texture(seed: 11)
        let m = try measure(SyntheticViews.view(tex) { _ in 0 }, SyntheticViews.view(tex) { _ in 20 })
        #expect(m.state == .measured, "\(m)")
        let median = try #require(m.medianDisparityPx)
        #expect(abs(median - 5) <= 1)
        #expect((m.matchedPatches ?? 0) >= 30)
        // Per patch, integer matching stays within the ±1 px floor of the true shift.
        #expect(m.matches.allSatisfy { abs($0.disparityPx - 5) <= 1 })
    }

    @Test func shiftTheOtherWayIsNegative() throws {
        let tex = SyntheticViews.texture(seed: 5)
        let m = try measure(SyntheticViews.view(tex) { _ in 0 }, SyntheticViews.view(tex) { _ in -36 })
        #expect(m.state == .measured)
        #expect(abs((m.medianDisparityPx ?? 0) + 9) <= 1)
    }

    /// A scene with depth: the upper band near (11 px), the lower band far (3 px).
    @Test func sceneWithDepthShowsBothShifts() throws {
        let tex = SyntheticViews.texture(seed: 23)
        let near = 44, far = 12
        let m = try measure(SyntheticViews.view(tex) { _ in 0 }, SyntheticViews.view(tex) { $0 < 128 ? near : far })
        #expect(m.state == .measured)
        let upper = m.matches.filter { $0.y <= 20 }, lower = m.matches.filter { $0.y >= 36 }
        #expect(upper.count >= 10 && lower.count >= 10)
        #expect(upper.allSatisfy { abs($0.disparityPx - 11) <= 1 })
        #expect(lower.allSatisfy { abs($0.disparityPx - 3) <= 1 })
        // The median is one band's disparity, not a blend: there is no planar fit.
        let median = try #require(m.medianDisparityPx)
        #expect(abs(median - 11) <= 1 || abs(median - 3) <= 1)
    }

    @Test func blankViewIsInsufficient() throws {
        let tex = SyntheticViews.texture(seed: 3)
        let m = try measure(SyntheticViews.blank(), SyntheticViews.view(tex) { _ in 8 })
        #expect(m.state == .insufficient)
        #expect(m.reason == .tooFewMatchedPatches)
        #expect(m.texturedPatches == 0)
        #expect(m.matchedPatches == nil && m.medianDisparityPx == nil)
    }

    @Test func identicalViewsAreBelowTheNoiseFloor() throws {
        let tex = SyntheticViews.texture(seed: 9)
        let v = SyntheticViews.view(tex) { _ in 0 }
        let m = try measure(v, v)
        #expect(m.state == .insufficient)
        #expect(m.reason == .baselineBelowMatcherNoise)
    }

    @Test func shortBaselineIsBelowTheNoiseFloor() throws {
        let tex = SyntheticViews.texture(seed: 9)
        // 0.05 mm at f = 1480 px on a 1920 raster: 0.037 px at 0.1 m on the 96-wide raster.
        let cal = SecondViewCalibration(baselineMm: 0.05, focalLengthPx: 1480, imageWidth: 1920)
        let m = try measure(SyntheticViews.view(tex) { _ in 0 }, SyntheticViews.view(tex) { _ in 20 }, calibration: cal)
        #expect(m.reason == .baselineBelowMatcherNoise)
        #expect(abs(SecondViewCalibration(baselineMm: 12.5, focalLengthPx: 1480, imageWidth: 1920).disparityPx(atDepthM: 1) - 0.925) < 1e-9)
    }

    @Test func undecodableViewIsInsufficient() throws {
        let tex = SyntheticViews.texture(seed: 1)
        let m = Parallax.measure(primary: MemoryByteSource(try SyntheticViews.jpeg(SyntheticViews.view(tex) { _ in 0 })),
                                 second: MemoryByteSource([UInt8](repeating: 0x41, count: 5000)))
        #expect(m.state == .insufficient)
        #expect(m.reason == .tooFewDecodableFrames)
        #expect(m.detail?.hasPrefix("second view") == true)
    }
}
