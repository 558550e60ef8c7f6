import C2PA
import Foundation

/// Unsigned samples of the formats c2pa-rs reads besides the capture app's JPEG and MP4 (issue
/// 16), for the tests of every stage: small ffmpeg lavfi pictures and sounds (`+bitexact`, one
/// thread), JPEG XL wrapped into its container (ffmpeg writes a naked codestream), an SVG and a
/// one-page PDF written out. `capture-synth` does not write these formats.
public enum FormatSamples {
    public static let formats: [ContainerFormat] = [.png, .webp, .wav, .avi, .tiff, .gif, .svg, .jxl, .mp3, .flac, .pdf]

    public static func mime(_ f: ContainerFormat) -> String {
        switch f {
        case .png: "image/png"
        case .webp: "image/webp"
        case .wav: "audio/wav"
        case .avi: "video/avi"
        case .tiff, .dng: "image/tiff"
        case .gif: "image/gif"
        case .svg: "image/svg+xml"
        case .jxl: "image/jxl"
        case .mp3: "audio/mpeg"
        case .flac: "audio/flac"
        case .pdf: "application/pdf"
        case .jpeg: "image/jpeg"
        case .bmff: "video/mp4"
        case .riff: "application/octet-stream"
        }
    }

    /// The file name extension a sample of `f` is written with.
    public static func fileExtension(_ f: ContainerFormat) -> String {
        switch f {
        case .tiff: "tif"
        case .jpeg: "jpg"
        case .bmff: "mp4"
        default: f.rawValue
        }
    }

    public static let svg = Array("""
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">
      <!-- exhibit test picture -->
      <rect x="4" y="4" width="56" height="40" fill="#3a7"/>
    </svg>

    """.utf8)

    static func ffmpegArguments(_ f: ContainerFormat) -> [String]? {
        let picture = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=1", "-frames:v", "1"]
        let sound = ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5"]
        switch f {
        case .png, .tiff, .gif: return picture
        case .webp: return picture + ["-c:v", "libwebp"]
        case .jxl: return picture + ["-c:v", "libjxl", "-f", "image2"]
        case .wav, .flac: return sound
        case .mp3: return sound + ["-c:a", "libmp3lame"]
        case .avi: return ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5", "-t", "0.4", "-c:v", "mjpeg"]
        default: return nil
        }
    }

    /// The unsigned sample of `f`, rendered into `work` (a folder) when it needs ffmpeg.
    public static func unsigned(_ f: ContainerFormat, work: String, ffmpeg: String = "/usr/bin/ffmpeg") throws(SynthError) -> [UInt8] {
        if f == .svg { return svg }
        if f == .pdf { return PDFContainer.minimalDocument() }
        guard let args = ffmpegArguments(f) else { throw SynthError(StatusCode.synthUsage, "no sample for \(f.rawValue)") }
        let out = work + "/sample-\(UUID().uuidString).\(fileExtension(f))"
        let renderer = MediaRenderer(ffmpeg: ffmpeg, seed: 0, work: work)
        try renderer.run(["-threads", "1", "-fflags", "+bitexact", "-flags", "+bitexact"] + args + [out])
        defer { try? FileManager.default.removeItem(atPath: out) }
        guard let data = FileManager.default.contents(atPath: out) else { throw SynthError(StatusCode.synthIo, "cannot read \(out)") }
        return f == .jxl ? JXLContainer.wrap(codestream: [UInt8](data)) : [UInt8](data)
    }
}
