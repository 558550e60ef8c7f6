import Foundation
import Ground
import TestLiterals
import Testing

/// Media made by the `ffmpeg` CLI for the tests (an independent encoder: libx264, aac, mjpeg,
/// pcm), cached per test process in one temporary folder.
enum MediaFixtures {
    static let folder: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("exhibit-media-fixtures").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    private static let lock = NSLock()
    private static let formats = ["mp4": "mp4", "jpg": "image2", "caf": "caf"]

    /// Runs `ffmpeg` with `args` (after `-y -loglevel error`), making `name` once.
    static func make(_ name: String, _ args: [String]) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        let out = folder + "/" + name
        if FileManager.default.fileExists(atPath: out) { return out }
        // Written under a temporary name and renamed: a cut-off run never leaves a half file.
        let ext = (name as NSString).pathExtension
        let partial = folder + "/partial-\(getpid())-" + name
        try run("/usr/bin/ffmpeg", ["-y", "-loglevel", "error", "-nostdin"] + args + ["-f", formats[ext] ?? ext, partial])
        try FileManager.default.moveItem(atPath: partial, toPath: out)
        return out
    }

    static func run(_ tool: String, _ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw FixtureError.toolFailed(tool + " " + args.joined(separator: " ") + ": " + String(decoding: e, as: UTF8.self))
        }
    }

    enum FixtureError: Error { case toolFailed(String) }

    /// H.264 (libx264) + AAC MP4, `seconds` long at `bitrate`, fast-start when asked.
    static func mp4(seconds: Int = 4, size: String = "640x360", bitrate: String = "4M", fps: Int = 30,
                    audioRate: Int = 48000, faststart: Bool = false) throws -> String {
        let name = "av-\(seconds)s-\(size)-\(bitrate)-\(fps)-\(audioRate)\(faststart ? "-fs" : "").mp4"
        var args = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(fps):duration=\(seconds)",
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(audioRate):duration=\(seconds)",
                    "-c:v", "libx264", "-preset", "ultrafast", "-b:v", bitrate, "-maxrate", bitrate, "-bufsize", bitrate,
                    "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-shortest"]
        if faststart { args += ["-movflags", "+faststart"] }
        return try make(name, args)
    }

    /// A 640×480 JPEG test picture.
    static func jpeg() throws -> String {
        try make("still-bars.jpg", ["-f", "lavfi", "-i", "smptebars=size=640x480:rate=1", "-frames:v", "1", "-q:v", "3"])
    }

    /// A 16 kHz mono 16-bit LPCM CAF (the audio master's format), `seconds` long.
    static func caf(seconds: Int = 3) throws -> String {
        try make("master-\(seconds).caf", ["-f", "lavfi", "-i", "sine=frequency=300:sample_rate=16000:duration=\(seconds)",
                                           "-ac", "1", "-c:a", "pcm_s16le"])
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes a derived (damaged) file under a per-process name.
    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let out = folder + "/\(getpid())-" + name
        try Data(bytes).write(to: URL(fileURLWithPath: out))
        return out
    }
}
