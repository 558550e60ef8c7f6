import Foundation
import Ground
import Synthesis
import TestLiterals
import Testing

/// ffprobe (libavformat, an independent reader) on the shared dump's media: the still's EXIF,
/// the CAF audio master, the 16-bit depth PNG, the ring frames and the video streams.
@Suite struct MediaFormatTests {
    func probe(_ path: String, _ entries: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error", "-show_entries", entries, "-of", "compact", path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let d = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: d, as: UTF8.self)
    }

    @Test func stillEvidenceAndEXIF() throws {
        let (dir, e) = try DumpExpectationTests.dump.get()
        let c = try #require(e.captures.first { $0.kind == "still" && $0.faults.isEmpty && $0.timeRung == "exact-ms" })
        let model = try #require(e.devices.first { $0.name == c.device }?.model)
        let tags = try probe(dir + "/" + c.deliveryFile, "frame_tags:stream=width,height")
        #expect(tags.contains("tag:Make=Apple") && tags.contains("tag:Model=\(model)"), "\(tags)")
        // DateTimeOriginal is the capture time in EXIF's own spelling.
        let t = try #require(c.captureTime)
        let exifTime = t.prefix(19).replacingOccurrences(of: "-", with: ":").replacingOccurrences(of: "T", with: " ")
        #expect(tags.contains("tag:DateTimeOriginal=\(exifTime)"), "\(tags)")
        #expect(tags.contains("width=1280|height=960"))

        let ev = dir + "/" + c.folder + "/evidence/"
        let audio = try probe(ev + "audio.caf", "stream=codec_name,sample_rate,channels:format=format_name,duration")
        #expect(audio.contains("codec_name=pcm_s16le|sample_rate=16000|channels=1"), "\(audio)")
        #expect(audio.contains("format_name=caf|duration=1.500000"), "\(audio)")
        let depth = try probe(ev + "depth.png", "stream=codec_name,width,height,pix_fmt")
        #expect(depth.contains("codec_name=png|width=160|height=120|pix_fmt=gray16be"), "\(depth)")
        let ring = try probe(ev + "ring/frame-p1.jpg", "stream=codec_name,width,height")
        #expect(ring.contains("codec_name=mjpeg|width=320|height=240"), "\(ring)")
        let second = try probe(ev + "second-view.jpg", "stream=width,height")
        #expect(second.contains("width=1280|height=960"))

        // The sensor log: anchor first, then IMU at 100 Hz, barometer and labelled fused fixes.
        let lines = try String(contentsOfFile: ev + "sensors.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"type\":\"anchor\"") == true)
        #expect(lines.filter { $0.contains("\"type\":\"imu\"") }.count == 200)
        #expect(lines.filter { $0.contains("\"relAlt\"") && $0.contains("\"press\"") }.count == 4)
        #expect(lines.filter { $0.contains("\"source\":\"fused-cllocation\"") }.count == 2)
    }

    @Test func videoStreams() throws {
        let (dir, e) = try DumpExpectationTests.dump.get()
        let c = try #require(e.captures.first { $0.kind == "video" && $0.faults.isEmpty })
        let s = try probe(dir + "/" + c.deliveryFile, "stream=codec_name,width,height,sample_rate,channels:format=bit_rate")
        #expect(s.contains("codec_name=h264|width=1920|height=1080"), "\(s)")
        #expect(s.contains("codec_name=aac|sample_rate=48000|channels=1"), "\(s)")
        let rate = s.split(separator: "\n").first { $0.hasPrefix("format|") }.flatMap { $0.split(separator: "=").last }.flatMap { Int($0) }
        #expect((8_000_000...13_000_000).contains(rate ?? 0), "~10 Mb/s: \(s)")
    }
}
