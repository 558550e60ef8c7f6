import Ground

@testable import Media
import TestLiterals
import Testing

@Suite struct ThumbnailTests {
    /// Mean absolute difference of two pictures at 96×64 gray.
    func difference(_ a: GrayImage, _ b: GrayImage) -> Double {
        Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
    }

    @Test func videoThumbnailIsTheFirstKeyframeScaled() throws {
        let path = try MediaFixtures.mp4(seconds: 4, size: "640x360")
        let t = try Thumbnail.make(path: path)
        #expect(t.width == 320 && t.height == 180)
        #expect(t.sourceWidth == 640 && t.sourceHeight == 360)
        #expect(Array(t.jpeg.prefix(2)) == [0xFF, 0xD8])
        #expect(t.jpeg.count < 40_000)
        let facts = try MediaFacts.read(source: MemoryByteSource(t.jpeg))
        #expect(facts.streams.first?.width == 320 && facts.streams.first?.height == 180)
        // Same picture as the video's first frame, decoded independently of the thumbnail path.
        let thumb = try GrayImage.decode(source: MemoryByteSource(t.jpeg), width: 96, height: 64)
        let first = try GrayImage.decode(path: path, width: 96, height: 64)
        #expect(difference(thumb, first) < 6)
        let still = try GrayImage.decode(path: try MediaFixtures.jpeg(), width: 96, height: 64)
        #expect(difference(thumb, still) > 10)
    }

    @Test func stillThumbnailKeepsAspect() throws {
        let t = try Thumbnail.make(path: try MediaFixtures.jpeg())
        #expect(t.width == 320 && t.height == 240)
    }

    @Test func smallPictureIsNotUpscaled() throws {
        let tex = SyntheticViews.texture(seed: 2)
        let jpeg = try SyntheticViews.jpeg(SyntheticViews.view(tex) { _ in 0 })
        let t = try Thumbnail.make(source: MemoryByteSource(jpeg), maxWidth: 1000)
        #expect(t.width == 320 && t.height == 212)
        #expect(Thumbnail.size(width: 200, height: 101, maxWidth: 320) == (200, 100))
    }
}
