import Export
import Foundation
import Testing

/// The PRONOM table (`FileFormat`) against `fido` (opf-fido, PRONOM signatures v109) on the
/// same files: every file of a capture-synth-like record — JPEG delivery file, CAF audio,
/// JSON Lines sensors — and the other formats the archive stores (MP4, PNG, JSON bundle), made
/// here. Where fido has no signature (JSON, JSON Lines) the test pins what it does instead.
@Suite struct FileFormatTests {
    /// fido's answer per file name: (status, PUID, match type).
    static func fido(_ dir: String) throws -> [String: (String, String, String)] {
        let bin = try #require(ArchivalPackageTests.bin)
        let (code, text) = try ExportFixture.run(bin + "/fido", ["-q", "-recurse", dir])
        #expect(code == 0, "\(text)")
        var out: [String: (String, String, String)] = [:]
        for line in text.split(separator: "\n") {
            // OK,<ms>,<puid>,"<name>","<signature>",<size>,"<path>","<mime>","<match>"
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 9 else { continue }
            let path = fields[fields.count - 3].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            out[(path as NSString).lastPathComponent] = (fields[0], fields[2], fields[fields.count - 1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        return out
    }

    @Test func tableAgreesWithFido() throws {
        let f = try ExportFixture()
        let record = try f.addCapture("c1", seed: 5)
        let out = f.root + "/bag"
        _ = try f.exporter().export([record], options: f.options(out))
        let folder = out + "/data/" + record.recordId.hex
        // The other stored formats, made by the tools that make them.
        let extra = f.root + "/extra"
        try FileManager.default.createDirectory(atPath: extra, withIntermediateDirectories: true)
        try ExportFixture.run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5",
                                                 "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", extra + "/VID_1.mp4"])
        try ExportFixture.run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x48",
                                                 "-frames:v", "1", extra + "/depth.png"])
        try ExportFixture.run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.2",
                                                 "-c:a", "pcm_s16le", extra + "/master.caf"])
        try Data(#"{"profile":"short","root":"ab","leaves":[]}"#.utf8).write(to: URL(fileURLWithPath: extra + "/short.bundle.json"))
        var files: [String: String] = [:]   // name → path
        for dir in [folder, folder + "/evidence", extra] {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir) where !name.hasPrefix(".") {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: dir + "/" + name, isDirectory: &isDir), !isDir.boolValue { files[name] = dir + "/" + name }
            }
        }
        // (The fixture's audio.caf is 4000 bytes of a counter, not a CAF file: unidentified by
        // its content; fido names it fmt/416 from the extension alone.)
        #expect(Set(files.keys) == ["IMG_c1.jpg", "audio.caf", "sensors.jsonl", "VID_1.mp4", "depth.png", "master.caf", "short.bundle.json"])
        var fido = try Self.fido(folder)
        fido.merge(try Self.fido(extra)) { a, _ in a }
        for (name, path) in files {
            let ours = FileFormat.identify(path: path)
            let theirs = try #require(fido[name], "fido said nothing about \(name)")
            switch ours.puid {
            case "fmt/817":
                // fido has no signature for plain JSON: it guesses from the extension.
                #expect(theirs.0 == "OK" && theirs.2 == "extension" && ["fmt/817", "fmt/1311"].contains(theirs.1), "\(name): \(theirs)")
            case nil:
                // No PUID from the content; fido either says nothing or guesses from the name alone.
                #expect(["JSON Lines", "unidentified"].contains(ours.name) && (theirs.0 == "KO" || theirs.2 == "extension"),
                        "\(name): ours \(ours), fido \(theirs)")
            default:
                #expect(theirs.0 == "OK" && theirs.1 == ours.puid && theirs.2 == "signature", "\(name): ours \(ours), fido \(theirs)")
            }
        }
        #expect(FileFormat.identify(path: files["IMG_c1.jpg"]!).puid == "fmt/44")
        #expect(FileFormat.identify(path: files["master.caf"]!).puid == "fmt/416")
        #expect(FileFormat.identify(path: files["VID_1.mp4"]!).puid == "fmt/199")
        #expect(FileFormat.identify(path: files["depth.png"]!).puid == "fmt/11")
        // METS.xml names them too.
        let mets = try String(contentsOfFile: out + "/METS.xml", encoding: .utf8)
        #expect(mets.contains("<premis:formatRegistryKey>fmt/44</premis:formatRegistryKey>"))
        #expect(mets.contains("<premis:formatName>JSON Lines</premis:formatName>"))
    }

    @Test func headerRules() {
        let jfif: (UInt8) -> [UInt8] = { [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, $0] }
        #expect(FileFormat.identify(head: jfif(1), name: "a.jpg").puid == "fmt/43")
        #expect(FileFormat.identify(head: jfif(0), name: "a.jpg").puid == "fmt/42")
        #expect(FileFormat.identify(head: [0xFF, 0xD8, 0xFF, 0xE1], name: "a.jpg") == FileFormat(name: "JPEG", version: nil, puid: nil, mime: "image/jpeg"))
        #expect(FileFormat.identify(head: [0, 0, 0, 20] + Array("ftypqt  ".utf8), name: "a.mov").puid == "x-fmt/384")
        #expect(FileFormat.identify(head: Array(" [1]".utf8), name: "x.json").puid == "fmt/817")
        #expect(FileFormat.identify(head: Array("hello".utf8), name: "x.json").puid == nil)
        #expect(FileFormat.identify(head: [], name: "x").name == "unidentified")
    }
}
