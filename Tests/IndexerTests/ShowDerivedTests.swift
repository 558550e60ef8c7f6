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
        let lines = text.out.split(separator: "\n").map(String.init)
        let derived = lines.filter { $0.hasPrefix("derived ") }
        #expect(derived.count == 1, "\(text.out)")
        let f = try #require(derived.first).split(separator: " ").map(String.init)
        // derived thumbnail <blob> <size> <w>x<h> <source-blob> libavcodec mjpeg <version>
        #expect(f.count == 9 && f[0] == "derived" && f[1] == "thumbnail" && f[2].count == 64 && f[4] == "320x240", "\(f)")
        #expect(f[6] == "libavcodec" && f[7] == "mjpeg")
        let variant = try #require(lines.first { $0.hasPrefix("variant ") }).split(separator: " ")
        #expect(String(variant[1]) == f[5])          // made from the delivery file
        #expect(f[2] != f[5])
        #expect(!lines.contains { $0.hasPrefix("file ") && $0.contains(f[2]) })
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

        let junk: [String] = cli(["show", "--archive", a, garbage]).out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("derived ") }
        #expect(junk.count == 1, "\(junk)")
        let junkLine = try #require(junk.first)
        #expect(junkLine.hasPrefix("derived thumbnail none "))
        #expect(junkLine.contains(" media."))
        // audit re-hashes every blob, the thumbnail among them; gc keeps it.
        #expect(cli(["audit", "--archive", a]).code == .success)
        #expect(cli(["gc", "--archive", a]).code == .success)
        #expect(cli(["get", "--archive", a, f[2], "--output", s.path + "/again.jpg"]).code == .success)
    }
}
