import Foundation
import Ground
@testable import Media
import TestLiterals
import Testing

@Suite struct MediaFactsTests {
    @Test func mp4FactsFromHeaderAlone() throws {
        let path = try MediaFixtures.mp4(seconds: 4, size: "640x360", bitrate: "4M", fps: 30, audioRate: 48000)
        let f = try MediaFacts.read(path: path)
        #expect(f.container.contains("mp4"))
        #expect(f.streamInfoProbed == false)
        let v = try #require(f.streams.first { $0.type == "video" })
        let a = try #require(f.streams.first { $0.type == "audio" })
        #expect(v.codec == "h264")
        #expect(v.width == 640 && v.height == 360)
        #expect(abs((v.frameRate ?? 0) - 30) < 0.01)
        #expect(v.frameCount == 120)
        #expect(abs((v.durationSeconds ?? 0) - 4) < 0.05)
        #expect(a.codec == "aac")
        #expect(a.sampleRate == 48000)
        #expect(a.channels == 1)
        #expect(abs((f.durationSeconds ?? 0) - 4) < 0.1)
        // 4 Mb/s target, capped: the stated rate lands within a factor of two.
        let vb = try #require(v.bitRate)
        #expect(vb > 1_000_000 && vb < 8_000_000)
    }

    /// A JPEG's size is in its SOF segment: read by `JPEGFrameHeader`, no decode.
    @Test func jpegFactsFromTheFrameHeader() throws {
        let f = try MediaFacts.read(path: try MediaFixtures.jpeg())
        #expect(f.streamInfoProbed == false)
        let v = try #require(f.streams.first)
        #expect(v.codec == "mjpeg")
        #expect(v.width == 640 && v.height == 480)
    }

    @Test func cafAudioMaster() throws {
        let f = try MediaFacts.read(path: try MediaFixtures.caf(seconds: 3))
        #expect(f.container == "caf")
        #expect(f.streamInfoProbed == false)
        let a = try #require(f.streams.first)
        #expect(a.codec == "pcm_s16le")
        #expect(a.sampleRate == 16000)
        #expect(a.channels == 1)
        #expect(a.bitsPerSample == 16)
        #expect(a.bitRate == 256_000)
        #expect(abs((a.durationSeconds ?? 0) - 3) < 0.001)
    }

    @Test func sequentialSourceReadsFastStartMP4() throws {
        let path = try MediaFixtures.mp4(seconds: 2, faststart: true)
        let src = UnseekableSource(MemoryByteSource(try MediaFixtures.bytes(path)))
        let f = try MediaFacts.read(source: src)
        #expect(f.streams.contains { $0.codec == "h264" && $0.width == 640 })
    }

    @Test func factsAreCodable() throws {
        let f = try MediaFacts.read(path: try MediaFixtures.caf(seconds: 3))
        let back = try JSONDecoder().decode(MediaFacts.self, from: JSONEncoder().encode(f))
        #expect(back == f)
    }
}
