import CaptureFormat
import Crypto
import Foundation
import Ground
import Synthesis
import TestLiterals
import Testing

/// The video of the shared dump: our sample-table reader against ffmpeg's own packet bytes, and
/// the recorded streamed-chunk root against the order written to expected.json.
@Suite struct VideoCommitmentTests {
    func cleanVideo() throws -> (String, ExpectedDump.Capture) {
        let (dir, expected) = try DumpExpectationTests.dump.get()
        let v = try #require(expected.captures.first { $0.kind == "video" && $0.faults.isEmpty })
        return (dir + "/" + v.deliveryFile, v)
    }

    /// ffmpeg's `data` muxer writes each packet's payload as stored (no bitstream filter).
    func ffmpegPackets(_ path: String, _ map: String) throws -> [UInt8] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("es-\(getpid())-\(map.filter(\.isLetter)).bin").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-loglevel", "error", "-y", "-i", path, "-map", map, "-c", "copy", "-f", "data", out]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        defer { try? FileManager.default.removeItem(atPath: out) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test func elementaryStreamsMatchFFmpeg() throws {
        let (path, _) = try cleanVideo()
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tables = try MP4SampleTables(parsing: file)
        for (handler, map) in [("vide", "0:v"), ("soun", "0:a")] {
            let t = try #require(tables.track(handler: handler))
            var ours: [UInt8] = []
            for s in t.samples { ours += file[s.offset..<(s.offset + s.size)] }
            let theirs = try ffmpegPackets(path, map)
            #expect(ours.count == theirs.count, "\(handler)")
            #expect(MessageDigest.sha256(ours) == MessageDigest.sha256(theirs), "\(handler)")
        }
        let v = try #require(tables.track(handler: "vide"))
        #expect(v.byteCount > 1_500_000, "2 s at ~10 Mb/s")
    }

    @Test func recordedRootFollowsTheExpectedOrder() throws {
        let (path, c) = try cleanVideo()
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let s = try #require(c.streamedChunks)
        let tables = try MP4SampleTables(parsing: file)
        func chunks(_ track: StreamedChunks.Track, _ handler: String) throws -> [ContentID] {
            let t = try #require(tables.track(handler: handler))
            var bytes: [UInt8] = []
            for x in t.samples { bytes += file[x.offset..<(x.offset + x.size)] }
            return stride(from: 0, to: bytes.count, by: StreamedChunks.chunkSize).enumerated().map { i, at in
                StreamedChunks.chunkHash(track: track, index: UInt64(i), bytes: Array(bytes[at..<min(at + StreamedChunks.chunkSize, bytes.count)]))
            }
        }
        let video = try chunks(.video, "vide"), audio = try chunks(.audio, "soun")
        #expect(video.count == s.videoChunks && audio.count == s.audioChunks)
        let order = s.order.compactMap(StreamedChunks.Track.init(rawValue:))
        #expect(try StreamedChunks.root(video: video, audio: audio, order: order).hex == s.root)
        #expect(s.completionTimes == s.completionTimes.sorted())
        // Another order gives another root: the order matters.
        if let i = order.firstIndex(of: .audio), i > 0 {
            var swapped = order
            swapped.swapAt(i, i - 1)
            #expect(try StreamedChunks.root(video: video, audio: audio, order: swapped).hex != s.root)
        }
    }

    @Test func hostileTablesAreTypedErrors() {
        // A moov whose trak has a tkhd but no mdia.
        let tkhd: [UInt8] = [0, 0, 0, 32] + Array("tkhd".utf8) + [UInt8](repeating: 0, count: 24)
        let trak: [UInt8] = [0, 0, 0, UInt8(8 + tkhd.count)] + Array("trak".utf8) + tkhd
        let moov: [UInt8] = [0, 0, 0, UInt8(8 + trak.count)] + Array("moov".utf8) + trak
        #expect(throws: MP4TableError.missing("mdia")) { try MP4SampleTables(parsing: moov) }
        // A box claiming more bytes than the file holds.
        #expect(throws: MP4TableError.badSize("moov", 0)) { try MP4SampleTables(parsing: [0, 0, 1, 0] + Array("moov".utf8)) }
        #expect(throws: MP4TableError.missing("moov")) { try MP4SampleTables(parsing: []) }
    }
}
