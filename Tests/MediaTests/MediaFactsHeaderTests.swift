import Foundation
import Ground
@testable import Media
import Testing

/// Issue 13: JPEG and CAF facts from the project's own parsers (no libavformat open), checked
/// field for field against libavformat on the same bytes, and against `ffprobe`.
@Suite struct MediaFactsHeaderTests {
    /// ffprobe's view of the first stream: codec, size or rate, channels, bits.
    static func ffprobe(_ path: String) throws -> [String: Any] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error", "-show_streams", "-show_format", "-of", "json", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var first = try #require((json["streams"] as? [[String: Any]])?.first)
        first["format_name"] = (json["format"] as? [String: Any])?["format_name"]
        return first
    }

    static func expectSame(_ path: String, name: String? = nil) throws {
        let source = try FileByteSource(path: path)
        let n = name ?? path
        let own = try #require(MediaFacts.fromHeaders(source: source, name: n), "\(path): declined")
        let libav = try MediaFacts.readWithLibAV(source: source, name: n)
        #expect(own == libav, "\(path): \(own) vs \(libav)")
        #expect(try MediaFacts.read(source: source, name: n) == own)
        let probe = try ffprobe(path)
        let s = try #require(own.streams.first)
        #expect(s.codec == probe["codec_name"] as? String, "\(path)")
        if s.type == "video" {
            #expect(s.width == probe["width"] as? Int && s.height == probe["height"] as? Int, "\(path)")
            #expect(s.profile == probe["profile"] as? String, "\(path)")
        } else {
            #expect(s.sampleRate.map(String.init) == probe["sample_rate"] as? String, "\(path)")
            #expect(s.channels == probe["channels"] as? Int && s.bitsPerSample == probe["bits_per_sample"] as? Int, "\(path)")
            #expect(s.frameCount.map(String.init) == probe["nb_frames"] as? String, "\(path)")
            #expect(own.container == probe["format_name"] as? String)
        }
    }

    @Test func jpegFactsEqualLibAVAndFFprobe() throws {
        try Self.expectSame(try MediaFixtures.jpeg())
        try Self.expectSame(try JPEGFrameHeaderTests.progressiveJPEG())
        // By content (no name): jpeg_pipe, as libavformat probes it.
        let source = try FileByteSource(path: try MediaFixtures.jpeg())
        #expect(MediaFacts.fromHeaders(source: source, name: "")?.container == "jpeg_pipe")
        #expect(try MediaFacts.readWithLibAV(source: source) == MediaFacts.fromHeaders(source: source, name: ""))
        // Any other name is left to libavformat.
        #expect(MediaFacts.fromHeaders(source: source, name: "still.bin") == nil)
    }

    @Test func cafFactsEqualLibAVAndFFprobe() throws {
        try Self.expectSame(try MediaFixtures.caf(seconds: 3))
        for (codec, rate, channels) in [("pcm_s24le", 48000, 2), ("pcm_s16be", 44100, 1), ("pcm_f32le", 22050, 2), ("pcm_s32le", 8000, 1)] {
            let path = try MediaFixtures.make("caf-\(codec)-\(rate)-\(channels).caf", [
                "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=\(rate):duration=1.3", "-ac", "\(channels)", "-c:a", codec])
            try Self.expectSame(path)
        }
    }

    @Test func synthDumpFactsEqualLibAV() throws {
        let (dir, _) = try SynthDumpTests.dump.get()
        let files = try #require(FileManager.default.enumerator(atPath: dir)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".caf") }
        #expect(files.contains { $0.hasSuffix(".caf") } && files.filter { $0.hasSuffix(".jpg") }.count >= 10)
        for f in files {
            let source = try FileByteSource(path: dir + "/" + f)
            let own = try #require(MediaFacts.fromHeaders(source: source, name: f), "\(f)")
            #expect(own == (try MediaFacts.readWithLibAV(source: source, name: f)), "\(f)")
        }
    }

    /// Damaged CAF headers: each a named `CAFHeaderError`, and the facts then come from
    /// libavformat (or its error), exactly as before.
    @Test func damagedCAFHeadersAreNamedAndLeftToLibAV() throws {
        let good = try MediaFixtures.bytes(try MediaFixtures.caf(seconds: 3))
        func code(_ b: [UInt8]) -> String? {
            do { _ = try CAFHeader(reading: MemoryByteSource(b)); return nil } catch { return error.code }
        }
        #expect(code(good) == nil)
        #expect(code(Array(good.prefix(30))) == StatusCode.cafHeaderTruncated)
        var b = good; b[3] = 0x67
        #expect(code(b) == StatusCode.cafHeaderNotCAF)
        b = good; b[8] = 0x78
        #expect(code(b) == StatusCode.cafHeaderNoDescription)
        b = good; b[19] = 33
        #expect(code(b) == StatusCode.cafHeaderBadChunkSize)
        b = good; b[28] = 0x61  // formatID "apcm": not lpcm
        #expect(code(b) == StatusCode.cafHeaderUnsupportedFormat)
        #expect(code(Array(good.prefix(good.count - 100))) == StatusCode.cafHeaderBadChunkSize)  // data past the end
        #expect(code(Array(good.prefix(52))) == StatusCode.cafHeaderNoData)
        for bad in [Array(good.prefix(good.count - 100)), Array(good.prefix(52))] {
            let src = MemoryByteSource(bad)
            #expect(MediaFacts.fromHeaders(source: src, name: "a.caf") == nil)
            let viaRead = Result { try MediaFacts.read(source: src, name: "a.caf") }
            let viaLibAV = Result { try MediaFacts.readWithLibAV(source: src, name: "a.caf") }
            #expect(String(describing: viaRead) == String(describing: viaLibAV))
        }
    }
}
