import Foundation
import Ground
@testable import Indexer
import TestLiterals
import Testing

/// `show` lists a record's derived blobs (the thumbnail made at ingest) on their own lines and
/// under `record.derived` in JSON, apart from `variant` and `file` (evidence).
@Suite struct ShowDerivedTests {
    @Test func showListsThumbnailAndFinding() throws {
        let s = Scratch()
        let dump = s.path + "/dump"
        let captures = dump + "/captures"
        try FileManager.default.createDirectory(atPath: captures, withIntermediateDirectories: true)
        // A 640×480 JPEG made by the ffmpeg CLI (unsigned: a record all the same) and garbage.
        let ff = Process()
        ff.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ff.arguments = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=640x480", "-frames:v", "1", captures + "/IMG_1.jpg"]
        try ff.run()
        ff.waitUntilExit()
        #expect(ff.terminationStatus == 0)
        _ = s.file("dump/captures/IMG_2.jpg", bytes: Array("garbage, not a picture".utf8))
        let a = s.archive
        #expect(cli(["init", "--archive", a]).code == .success)
        let ingest = cli(["ingest", dump, "--archive", a, "--json", "--jobs", "2"])
        var recordOf: [String: String] = [:]
        for line in ingest.out.split(separator: "\n") {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard o?["type"] as? String == "capture", let path = o?["sourcePath"] as? String, let id = o?["recordId"] as? String else { continue }
            recordOf[String(path.split(separator: "/").last ?? "")] = id
        }
        let picture = try #require(recordOf["IMG_1.jpg"], "\(ingest.out) \(ingest.err)")
        let garbage = try #require(recordOf["IMG_2.jpg"])

        let text = cli(["show", "--archive", a, picture])
        #expect(text.code == .success)
        let files = QueryCommandTests.section(text.out, "Files")
        let derived = files.filter { $0.hasPrefix("derived ") }
        #expect(derived.count == 1, "\(text.out)")
        let words = try #require(derived.first).split(separator: " ").map(String.init)
        // derived thumbnail: <blob> <size> bytes <w>x<h> from <source-blob> by libjpeg-turbo <version>
        // tjCompressFromYUVPlanes q=<quality> (not evidence) — a still's thumbnail is libjpeg-turbo's
        // since session 9 (libavcodec mjpeg <version> before, as a video's thumbnail still is).
        #expect(words.count == 15 && words[0] == "derived" && words[1] == "thumbnail:" && words[4] == "bytes" && words[6] == "from"
                && words[8] == "by" && words[13...] == ["(not", "evidence)"], "\(words)")
        // As the former `derived <kind> <blob> <size> <w>x<h> <source-blob> <tool…>` fields.
        let f = ["derived", "thumbnail", words[2], words[3], words[5], words[7], words[9], words[10], words[11], words[12]]
        #expect(f[2].count == 64 && f[4] == "320x240", "\(f)")
        #expect(f[6] == "libjpeg-turbo" && f[8] == "tjCompressFromYUVPlanes" && f[9].hasPrefix("q="))
        let variant = try #require(files.first { $0.hasPrefix("variant: ") }).split(separator: " ")
        #expect(String(variant[1]) == f[5])          // made from the delivery file
        #expect(f[2] != f[5])
        #expect(!files.contains { !$0.hasPrefix("derived ") && $0.contains(f[2]) })
        // The blob is in the CAS, with the stated size.
        let get = cli(["get", "--archive", a, f[2], "--output", s.path + "/thumb.jpg"])
        #expect(get.code == .success, "\(get.err)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: s.path + "/thumb.jpg"))
        #expect(String(bytes.count) == f[3])
        #expect(bytes.prefix(2) == Data([0xFF, 0xD8]))

        let json = cli(["show", "--archive", a, "--json", picture])
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let record = try #require(top["record"] as? [String: Any])
        let entries = try #require(record["derived"] as? [[String: Any]])
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["blobId"] as? String == f[2])
        #expect(entry["width"] as? Int == 320)
        #expect(entry["mediaType"] as? String == "image/jpeg")
        #expect(entry["sourceBlobId"] as? String == f[5])

        let junk = QueryCommandTests.section(cli(["show", "--archive", a, garbage]).out, "Files").filter { $0.hasPrefix("derived ") }
        #expect(junk.count == 1, "\(junk)")
        let junkLine = try #require(junk.first)
        #expect(junkLine.hasPrefix("derived thumbnail: none from "))
        #expect(junkLine.contains(": media."))
        // audit re-hashes every blob, the thumbnail among them; gc keeps it.
        #expect(cli(["audit", "--archive", a]).code == .success)
        #expect(cli(["gc", "--archive", a]).code == .success)
        #expect(cli(["get", "--archive", a, f[2], "--output", s.path + "/again.jpg"]).code == .success)
    }
}
