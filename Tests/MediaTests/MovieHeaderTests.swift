import Foundation
import Ground
@testable import Media
import Testing

/// Issue 13: MP4/MOV facts from the project's own `moov` reader (no libavformat open), checked
/// field for field against libavformat on the same bytes: every synth video, and ffmpeg-made
/// files of other rates, sizes, codecs and layouts. What the reader declines is a named
/// `MovieHeaderError`, and its facts are then libavformat's, exactly as before.
@Suite struct MovieHeaderTests {
    /// Own facts equal libavformat's; false when the reader declined (then `read` is libav's).
    @discardableResult
    static func expectSame(_ source: any ByteSource, name: String, _ label: String) throws -> Bool {
        let libav = try MediaFacts.readWithLibAV(source: source, name: name)
        #expect(try MediaFacts.read(source: source, name: name) == libav, "\(label)")
        guard let own = MediaFacts.fromHeaders(source: source, name: name) else { return false }
        #expect(own == libav, "\(label):\n own   \(own)\n libav \(libav)")
        return true
    }

    /// For a file the reader declines: `read` gives what libavformat gives, facts or error.
    static func expectLibAVResult(_ bytes: [UInt8], _ label: String) {
        let source = MemoryByteSource(bytes)
        #expect(MediaFacts.fromHeaders(source: source, name: "v.mp4") == nil, "\(label)")
        let viaRead = Result { try MediaFacts.read(source: source, name: "v.mp4") }
        let viaLibAV = Result { try MediaFacts.readWithLibAV(source: source, name: "v.mp4") }
        #expect(String(describing: viaRead) == String(describing: viaLibAV), "\(label)")
    }

    static func ffmpeg(_ name: String, video: [String] = ["-c:v", "libx264", "-preset", "ultrafast"],
                       size: String = "320x240", fps: String = "30", audio: String? = "48000", channels: Int = 1,
                       seconds: String = "2", extra: [String] = [], format: String = "mp4") throws -> String {
        var args = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(fps):duration=\(seconds)"]
        if let audio {
            args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(audio):duration=\(seconds)", "-ac", "\(channels)", "-c:a", "aac"]
        }
        args += video + ["-pix_fmt", "yuv420p"] + extra + ["-f", format]
        return try MediaFixtures.make(name, args)
    }

    @Test func synthVideosEqualLibAV() throws {
        let (dir, _) = try SynthDumpTests.dump.get()
        let files = try #require(FileManager.default.enumerator(atPath: dir)).compactMap { $0 as? String }.filter { $0.hasSuffix(".mp4") }
        #expect(files.count >= 2)
        for f in files {
            // Signed (a C2PA `uuid` box after `ftyp`), H.264 with B-frames and AAC, fast start.
            #expect(try Self.expectSame(try FileByteSource(path: dir + "/" + f), name: f, f), "\(f): declined")
        }
    }

    @Test func ffmpegFilesEqualLibAV() throws {
        var read: [String] = []
        let cases: [(String, () throws -> String)] = [
            ("fixture", { try MediaFixtures.mp4() }),
            ("fixture fast start", { try MediaFixtures.mp4(seconds: 2, faststart: true) }),
            ("fixture 24 fps 44.1 kHz", { try MediaFixtures.mp4(seconds: 3, size: "320x180", bitrate: "1M", fps: 24, audioRate: 44100) }),
            ("25 fps, B-frames, stereo 22.05 kHz", { try Self.ffmpeg("mh-25-b-st.mp4", video: ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "2"],
                                                                      fps: "25", audio: "22050", channels: 2) }),
            ("29.97 fps", { try Self.ffmpeg("mh-2997.mp4", fps: "30000/1001", seconds: "2.5") }),
            ("60 fps, no audio", { try Self.ffmpeg("mh-60-silent.mp4", fps: "60", audio: nil) }),
            ("odd size, 8 kHz", { try Self.ffmpeg("mh-odd.mp4", size: "322x178", audio: "8000") }),
            ("QuickTime", { try Self.ffmpeg("mh-qt.mov", format: "mov") }),
            ("HEVC", { try Self.ffmpeg("mh-hevc.mp4", video: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=none", "-tag:v", "hvc1"]) }),
            ("HEVC hev1, 0.5 s", { try Self.ffmpeg("mh-hev1.mp4", video: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=none"], seconds: "0.5") }),
        ]
        for (label, make) in cases {
            let path = try make()
            if try Self.expectSame(try FileByteSource(path: path), name: path, label) { read.append(label) }
            // By content, without a name: the same facts.
            try Self.expectSame(try FileByteSource(path: path), name: "", label + " (no name)")
        }
        // Every MP4 is read by the reader; QuickTime's AAC sound description (version 1) is left to libav.
        #expect(Set(read) == Set(cases.map(\.0)).subtracting(["QuickTime"]), "\(read)")
    }

    /// Fragmented, damaged and unsupported files: each a named error, and the facts libav's.
    @Test func declinedFilesAreNamedAndLeftToLibAV() throws {
        let good = try MediaFixtures.bytes(try MediaFixtures.mp4(seconds: 2, faststart: true))
        func code(_ b: [UInt8]) -> String? {
            do { _ = try MovieHeader(reading: MemoryByteSource(b)); return nil } catch { return error.code }
        }
        /// The first box of `type` after `after` (a four-character code also occurs in `ftyp`'s brands).
        func offset(of type: String, in b: [UInt8], after: Int = 16) throws -> Int {
            let t = Array(type.utf8)
            return try #require((after..<(b.count - 4)).first { Array(b[$0..<($0 + 4)]) == t }) - 4
        }
        #expect(code(good) == nil)
        let fragmented = try MediaFixtures.bytes(try Self.ffmpeg("mh-frag.mp4", extra: ["-movflags", "frag_keyframe+empty_moov"]))
        #expect(code(fragmented) == StatusCode.movieHeaderFragmented)
        // A segment index after the movie: libavformat's sidx reader rewrites stream durations.
        // version 0, reference_ID 1, timescale 1000, earliest time 0, first offset 0, no references
        let sidx = good + Self.box("sidx", [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0x03, 0xE8] + [UInt8](repeating: 0, count: 12))
        #expect(code(sidx) == StatusCode.movieHeaderFragmented)
        Self.expectLibAVResult(sidx, "sidx")
        #expect(code(good + [0, 0, 0]) == StatusCode.movieHeaderTrailingData)
        #expect(code(Array(good.prefix(good.count - 10))) == StatusCode.movieHeaderBadBoxSize)
        var b = good
        b[4] = 0x78  // "xtyp"
        #expect(code(b) == StatusCode.movieHeaderNotMovie)
        let moov = try offset(of: "moov", in: good)
        b = good; b[moov + 4] = 0x78  // no moov
        #expect(code(b) == StatusCode.movieHeaderNoMovie)
        let mvhd = try offset(of: "mvhd", in: good)
        b = good; b[mvhd + 8] = 2  // mvhd version 2
        #expect(code(b) == StatusCode.movieHeaderBadBox)
        let stsz = try offset(of: "stsz", in: good)
        b = good; b[stsz + 19] ^= 1  // sample count off by one
        #expect(code(b) == StatusCode.movieHeaderInconsistentTables)
        let avc1 = try offset(of: "avc1", in: good, after: try offset(of: "stsd", in: good))
        b = good; b.replaceSubrange((avc1 + 4)..<(avc1 + 8), with: Array("mp4v".utf8))
        #expect(code(b) == StatusCode.movieHeaderUnsupportedCodec)
        // An edit list is not read (FormatInput opens with ignore_editlist): a rate of 2 changes nothing.
        let elst = try offset(of: "elst", in: good)
        b = good; b[elst + 24] = 2
        #expect(code(b) == nil)
        try Self.expectSame(MemoryByteSource(b), name: "v.mp4", "edit rate 2")
        let hdlr = try offset(of: "hdlr", in: good)
        b = good; b.replaceSubrange((hdlr + 16)..<(hdlr + 20), with: Array("text".utf8))
        #expect(code(b) == StatusCode.movieHeaderUnsupportedTrack)
        for (bytes, label) in [(fragmented, "fragmented"), (Array(good.prefix(good.count - 10)), "cut"), (b, "text track")] {
            Self.expectLibAVResult(bytes, label)
        }
        // No mvhd; a track without mdia; a box nested past the cap; more boxes than the budget.
        let ftyp = Self.box("ftyp", Array("isom".utf8) + [0, 0, 2, 0])
        #expect(code(ftyp + Self.box("moov", Self.box("trak", []))) == StatusCode.movieHeaderMissingBox)
        var walk = MovieBoxes(MemoryByteSource(Self.box("free", [])))
        #expect(throws: MovieHeaderError.tooDeep(at: 0)) { try walk.boxes(in: 0..<8, depth: MovieBoxes.maximumDepth + 1) }
        let many = ftyp + [UInt8](repeating: 0, count: 8 * MovieBoxes.maximumBoxes).enumerated().map { i, _ in i % 8 == 3 ? 8 : i % 8 >= 4 ? Array("free".utf8)[i % 4] : 0 }
        #expect(code(many) == StatusCode.movieHeaderTooManyBoxes)
        // A size field larger than the file.
        b = good
        b[moov] = 0x7F
        #expect(code(b) == StatusCode.movieHeaderBadBoxSize)
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let n = UInt32(8 + body.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + body
    }

    @Test func rescaleAndReduceMatchLibAV() {
        // av_rescale rounds to the nearest, halves away from zero.
        #expect(MovieHeader.rescale(1, 1_000_000, 3) == 333_333)
        #expect(MovieHeader.rescale(2, 1_000_000, 3) == 666_667)
        #expect(MovieHeader.rescale(1, 1, 2) == 1)
        #expect(MovieHeader.rescale(UInt64(Int64.max), 1_000_000, 1) == nil)
        #expect(MovieHeader.reduce((30_000 * 150, false), 1001 * 150)! == (30_000, 1001))
        #expect(MovieHeader.reduce((UInt64(Int32.max) * 3, false), 2) == nil)
    }
}
