import CAV
import Foundation
import Ground
@testable import Media
import TestLiterals
import Testing

/// The SOF reader that replaced `avformat_find_stream_info` for JPEG facts, checked against
/// libav's own probe (the old path) on ffmpeg stills, a jpegtran progressive JPEG, and the
/// stills, second views and ring frames of a capture-synth dump.
@Suite struct JPEGFrameHeaderTests {
    /// The old path: libav decodes the first frame to learn the size and profile.
    static func probedFacts(_ path: String) throws -> MediaFacts {
        let source = try FileByteSource(path: path)
        let input = try FormatInput(source: source, name: path)
        try input.findStreamInfo()
        return MediaFacts.facts(of: input, size: source.count, probed: true, singleImage: true)
    }

    static func expectSameFacts(_ path: String) throws {
        let new = try MediaFacts.read(path: path)
        var old = try probedFacts(path)
        #expect(new.streamInfoProbed == false, "\(path)")
        old.streamInfoProbed = false
        #expect(new == old, "\(path): \(new) vs \(old)")
        #expect(new.streams.first?.width ?? 0 > 0)
    }

    static func progressiveJPEG() throws -> String {
        let out = MediaFixtures.folder + "/still-bars-progressive.jpg"
        if !FileManager.default.fileExists(atPath: out) {
            let partial = out + ".\(getpid())"
            try MediaFixtures.run("/usr/bin/jpegtran", ["-progressive", "-outfile", partial, try MediaFixtures.jpeg()])
            try FileManager.default.moveItem(atPath: partial, toPath: out)
        }
        return out
    }

    @Test func baselineStillMatchesTheProbe() throws {
        let path = try MediaFixtures.jpeg()
        try Self.expectSameFacts(path)
        let f = try MediaFacts.read(path: path)
        let v = try #require(f.streams.first)
        #expect(MediaFacts.singleImageContainers.contains(f.container))
        #expect(v.codec == "mjpeg" && v.width == 640 && v.height == 480 && v.profile == "Baseline")
        // A single image: no frame rate, duration or bit rate (image2's 25 fps default is dropped).
        #expect(v.frameRate == nil && v.durationSeconds == nil && f.durationSeconds == nil && f.bitRate == nil)
    }

    @Test func progressiveStillMatchesTheProbe() throws {
        let path = try Self.progressiveJPEG()
        try Self.expectSameFacts(path)
        let header = try JPEGFrameHeader(parsing: try MediaFixtures.bytes(path))
        #expect(header.marker == 0xC2 && header.components == 3 && header.precision == 8)
        #expect(try MediaFacts.read(path: path).streams.first?.profile == "Progressive")
    }

    @Test func synthStillsAndRingFramesMatchTheProbe() throws {
        let (dir, _) = try SynthDumpTests.dump.get()
        let files = (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jpg") }
        #expect(files.count >= 3 * 9)  // each still: delivery, second view, 7 ring frames
        for f in files { try Self.expectSameFacts(dir + "/" + f) }
    }

    @Test func grayDecodeUsesLowresOnlyDownToTheRaster() throws {
        #expect(PictureDecoder.lowres(width: 1280, height: 960, atLeast: (96, 64)) == 3)
        #expect(PictureDecoder.lowres(width: 640, height: 480, atLeast: (96, 64)) == 2)
        #expect(PictureDecoder.lowres(width: 384, height: 256, atLeast: (96, 64)) == 2)
        #expect(PictureDecoder.lowres(width: 380, height: 256, atLeast: (96, 64)) == 1)
        #expect(PictureDecoder.lowres(width: 96, height: 64, atLeast: (96, 64)) == 0)
        #expect(PictureDecoder.lowres(width: 1920, height: 1440, atLeast: (320, 240), maxLowres: 2) == 2)
        #expect(PictureDecoder.lowres(width: 638, height: 480, atLeast: (320, 240)) == 0)
    }

    @Test func hostileHeadersAreNamed() throws {
        let bytes = try MediaFixtures.bytes(try MediaFixtures.jpeg())
        func code(_ b: [UInt8]) -> String? {
            do { _ = try JPEGFrameHeader(parsing: b); return nil } catch { return error.code }
        }
        #expect(code([]) == "jpegHeader.notJPEG")
        #expect(code([0x89, 0x50]) == "jpegHeader.notJPEG")
        let sof = try #require((0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        for cut in [2, 3, 4, 5, sof, sof + 4, sof + 9] {
            #expect(code(Array(bytes.prefix(cut))) == "jpegHeader.truncated", "cut \(cut)")
        }
        #expect(code(Array(bytes.prefix(sof + 19))) == nil)  // the SOF itself is all it needs
        var long = bytes
        long[4] = 0xFF; long[5] = 0xFF  // first segment claims 65535 bytes, past the end
        #expect(code(Array(long.prefix(200))) == "jpegHeader.truncated")
        var short = bytes
        short[4] = 0; short[5] = 1
        #expect(code(short) == "jpegHeader.badSegmentLength")
        var noSOF = bytes
        noSOF[sof + 1] = 0xDA  // an SOS where the frame header should be
        #expect(code(noSOF) == "jpegHeader.noFrameHeader")
        var dnl = bytes
        dnl[sof + 5] = 0; dnl[sof + 6] = 0  // height deferred to DNL
        #expect(code(dnl) == "jpegHeader.sizeNotInFrameHeader")
        var count = bytes
        count[sof + 9] = 4  // four components in a segment sized for three
        #expect(code(count) == "jpegHeader.badSegmentLength")
        var junk = bytes
        junk[2] = 0x12  // not a marker
        #expect(code(junk) == "jpegHeader.badMarker")
        // Only restart markers and fill bytes, forever: the segment cap ends the walk.
        #expect(code([0xFF, 0xD8] + Array(repeating: [0xFF, 0xD0], count: 5000).joined()) == "jpegHeader.tooManySegments")
    }
}
