import Crypto
import Foundation
import Ground
import Synthesis
@testable import Media
import Testing
import TurboJPEG

/// Issue 13: stills decoded once by libjpeg-turbo at a DCT scale, shared by parallax and the
/// thumbnail. Every figure is compared with the libavcodec path it replaced, on the same files.
@Suite(.serialized) struct StillDecodeTests {
    func difference(_ a: GrayImage, _ b: GrayImage) -> Double {
        Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
    }

    func stills() throws -> [(dir: String, capture: ExpectedDump.Capture)] {
        let (dir, expected) = try SynthDumpTests.dump.get()
        let stills = expected.captures.filter { $0.kind == "still" && $0.faults.isEmpty && $0.secondView != nil }
        #expect(stills.count >= 2)
        return stills.map { (dir, $0) }
    }

    @Test func scaleIsTheSmallestAtLeastTheTarget() {
        #expect(JPEGDecompressor.scale(width: 1280, height: 960, atLeast: (96, 64)) == (1, 8))
        #expect(JPEGDecompressor.scale(width: 1280, height: 960, atLeast: (320, 240)) == (1, 4))
        #expect(JPEGDecompressor.scale(width: 500, height: 400, atLeast: (320, 256)) == (3, 4))
        #expect(JPEGDecompressor.scale(width: 100, height: 80, atLeast: (100, 80)) == (1, 1))
        #expect(StillPicture.target(width: 1280, height: 960) == (320, 240))
        #expect(StillPicture.target(width: 4000, height: 300) == (320, 64))
    }

    /// The synth second views' parallax from libjpeg-turbo rasters against libavcodec's: the
    /// same state, medians within ±1 px of each other and of the disparity synth drew.
    @Test func parallaxAgreesWithTheLibAVDecode() throws {
        for (dir, c) in try stills() {
            let sv = try #require(c.secondView)
            let second = try #require(c.files.first { $0.hasSuffix("second-view.jpg") })
            let p = try FileByteSource(path: dir + "/" + c.deliveryFile), s = try FileByteSource(path: dir + "/" + second)
            let turbo = Parallax.measure(primary: p, second: s)
            let libav = Parallax.measure(
                primary: try GrayImage.decodeWithLibAV(source: p, width: Parallax.rasterWidth, height: Parallax.rasterHeight),
                second: try GrayImage.decodeWithLibAV(source: s, width: Parallax.rasterWidth, height: Parallax.rasterHeight))
            #expect(turbo.state == .measured && libav.state == .measured, "\(c.id): \(turbo) \(libav)")
            let mt = try #require(turbo.medianDisparityPx), ml = try #require(libav.medianDisparityPx)
            #expect(abs(mt - ml) <= 1, "\(c.id): turbo \(mt) libav \(ml)")
            #expect(abs(mt + sv.disparityAt96) <= 1, "\(c.id): \(mt) vs \(sv.disparityAt96)")
            // The rasters themselves: the same picture to a few gray levels.
            let rt = try GrayImage.decode(source: s, width: 96, height: 64)
            let rl = try GrayImage.decodeWithLibAV(source: s, width: 96, height: 64)
            #expect(difference(rt, rl) < 2, "\(c.id): \(difference(rt, rl))")
            print("parallax \(c.id): turbo \(mt) px (\(turbo.matchedPatches ?? 0) patches), libav \(ml) px (\(libav.matchedPatches ?? 0)), raster mean |Δ| \(difference(rt, rl))")
        }
    }

    /// One decode per still: parallax leaves the delivery's planes under the bytes' SHA-256; the
    /// thumbnail takes them, and is byte for byte the thumbnail a fresh decode makes.
    @Test func thumbnailReusesTheParallaxDecode() throws {
        let (dir, c) = try #require(try stills().first)
        let second = try #require(c.files.first { $0.hasSuffix("second-view.jpg") })
        let path = dir + "/" + c.deliveryFile
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let id = ContentID.sha256(of: bytes)
        _ = Parallax.measure(primaryPath: path, secondPath: dir + "/" + second)
        let planes = try #require(StillPictureMemo.take(id))
        #expect(planes.scale == (1, 4) && planes.width == 320 && planes.subsampling != .gray)
        StillPictureMemo.put(id, planes)
        // A source that cannot be read: only the memo can serve this thumbnail.
        let shared = try Thumbnail.make(source: MemoryByteSource([]), contentID: id)
        #expect(StillPictureMemo.take(id) == nil)
        let fresh = try Thumbnail.make(path: path)
        #expect(shared == fresh)
        #expect(JPEGDecompressor.version == "2.1.5")
    }

    /// The libjpeg-turbo thumbnail against libavcodec's: same size, same picture by pixel
    /// statistics (mean absolute difference at 96×64, and mean level).
    @Test func thumbnailMatchesTheLibAVThumbnail() throws {
        for (dir, c) in try stills() {
            let source = try FileByteSource(path: dir + "/" + c.deliveryFile)
            let turbo = try Thumbnail.make(source: source)
            let libav = try Thumbnail.makeWithLibAV(source: source, maxWidth: Thumbnail.maxWidth)
            #expect((turbo.width, turbo.height, turbo.sourceWidth, turbo.sourceHeight)
                    == (libav.width, libav.height, libav.sourceWidth, libav.sourceHeight))
            let a = try GrayImage.decodeWithLibAV(source: MemoryByteSource(turbo.jpeg), width: 96, height: 64)
            let b = try GrayImage.decodeWithLibAV(source: MemoryByteSource(libav.jpeg), width: 96, height: 64)
            let meanA = Double(a.pixels.reduce(0) { $0 + Int($1) }) / Double(a.pixels.count)
            let meanB = Double(b.pixels.reduce(0) { $0 + Int($1) }) / Double(b.pixels.count)
            #expect(difference(a, b) < 3 && abs(meanA - meanB) < 1.5, "\(c.id): |Δ| \(difference(a, b)), means \(meanA) \(meanB)")
            print("thumbnail \(c.id): \(turbo.width)x\(turbo.height), mean |Δ| \(difference(a, b)), means \(meanA) / \(meanB), bytes \(turbo.jpeg.count) / \(libav.jpeg.count)")
        }
    }

    /// Hostile stills: a frame header claiming 60000 × 60000 is refused before any allocation; a
    /// JPEG libjpeg-turbo warns about is decoded by libavcodec exactly as before.
    @Test func hostileStillsGiveTypedErrors() throws {
        let path = try MediaFixtures.jpeg()
        var bytes = try MediaFixtures.bytes(path)
        let sof = try #require((0..<bytes.count - 9).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        bytes[sof + 5] = 0xEA; bytes[sof + 6] = 0x60; bytes[sof + 7] = 0xEA; bytes[sof + 8] = 0x60
        #expect(throws: MediaError.dimensionsTooLarge(width: 60_000, height: 60_000)) {
            try GrayImage.decode(source: MemoryByteSource(bytes), width: 96, height: 64)
        }
        // Damaged stills (cut in the scan) go to libavcodec, as before: the same thumbnail bytes.
        let whole = try MediaFixtures.bytes(path)
        for cut in [whole.count / 2, 400] {
            let src = MemoryByteSource(Array(whole.prefix(cut)))
            func outcome(_ f: () throws(MediaError) -> Thumbnail) -> String {
                do { return "\(try f().jpeg)" } catch { return error.code }
            }
            let viaMake = outcome { () throws(MediaError) in try Thumbnail.make(source: src) }
            let viaLibAV = outcome { () throws(MediaError) in try Thumbnail.makeWithLibAV(source: src, maxWidth: Thumbnail.maxWidth) }
            #expect(viaMake == viaLibAV, "cut \(cut)")
        }
        #expect(throws: MediaError.self) { try Thumbnail.make(source: MemoryByteSource([0xFF, 0xD8, 0xFF, 0xD9])) }
    }
}
