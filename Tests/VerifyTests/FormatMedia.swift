import C2PA
import Foundation

/// Unsigned media of every format of issue 16, made once per test process (ffmpeg for the
/// codecs, JPEG XL wrapped into its container, SVG and PDF written out), and where each keeps a
/// byte of its media data (a flip there changes the picture or the sound, never the structure).
enum FormatMedia {
    static let formats: [ContainerFormat] = [.png, .webp, .wav, .avi, .tiff, .gif, .svg, .jxl, .mp3, .flac, .pdf]

    static func mime(_ f: ContainerFormat) -> String {
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

    static func ext(_ f: ContainerFormat) -> String { f == .tiff ? "tif" : f.rawValue }

    static let svg = Array("""
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">
      <!-- exhibit test picture -->
      <rect x="4" y="4" width="56" height="40" fill="#3a7"/>
    </svg>

    """.utf8)

    static let pdf = PDFContainer.minimalDocument()

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

    /// The unsigned media (cached in the temporary folder for this process).
    static func unsigned(_ f: ContainerFormat) throws -> [UInt8] {
        if f == .svg { return svg }
        if f == .pdf { return pdf }
        guard let args = ffmpegArguments(f) else { throw CocoaError(.featureUnsupported) }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-formats-\(getpid())-plain.\(ext(f))")
        if !FileManager.default.fileExists(atPath: out.path) {
            let tmp = out.deletingLastPathComponent().appendingPathComponent("\(UUID().uuidString).\(ext(f))")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            p.arguments = ["-loglevel", "error", "-y", "-threads", "1", "-fflags", "+bitexact", "-flags", "+bitexact"] + args + [tmp.path]
            try p.run()
            p.waitUntilExit()
            if f == .jxl { try Data(JXLContainer.wrap(codestream: [UInt8](try Data(contentsOf: tmp)))).write(to: tmp) }
            if rename(tmp.path, out.path) != 0 { try? FileManager.default.removeItem(at: tmp) }
        }
        return [UInt8](try Data(contentsOf: out))
    }

    struct Missing: Error, CustomStringConvertible {
        let file: String, line: Int
        var description: String { "nothing found at \(file):\(line)" }
    }

    static func need<T>(_ v: T?, file: String = #fileID, line: Int = #line) throws -> T {
        guard let v else { throw Missing(file: file, line: line) }
        return v
    }

    /// An offset in `file` (signed or not) inside its media data: picture, sound or page content.
    static func mediaByte(in file: [UInt8], format f: ContainerFormat) throws -> Int {
        let src = MemoryByteSource(file)
        func mid(_ r: Range<Int64>) -> Int { Int(r.lowerBound + Int64(r.count) / 2) }
        func find(_ s: String) -> Int? {
            let n = Array(s.utf8)
            return (0...(file.count - n.count)).first { file[$0..<($0 + n.count)].elementsEqual(n) }
        }
        switch f {
        case .png: return mid(try need(try PNGContainer.chunks(of: src).first { $0.type == "IDAT" }).dataRange)
        case .webp, .wav, .avi:
            return mid(try need(try RIFFContainer.chunks(of: src).chunks.filter { $0.id != "C2PA" }.max { $0.range.count < $1.range.count }).dataRange)
        case .tiff:
            let (layout, pages) = try TIFFContainer.pages(of: src)
            let strips = try need(pages[0].entry(273))
            let firstData = strips.count == 1 ? Int(strips.offsetValue(in: layout)) : 8
            return firstData + 200
        case .gif: return file.count - 3
        case .svg: return try need(find("#3a7")) + 1
        case .jxl: return mid(try need(try JXLContainer.boxes(of: src).first { $0.type == "jxlc" }).payloadRange)
        case .mp3, .flac:
            let end = Int(try ID3Container.header(of: src)?.range.upperBound ?? 0)
            return end + (file.count - end) / 2
        case .pdf: return try need(find("0 0 1 rg")) + 4
        default: throw CocoaError(.featureUnsupported)
        }
    }
}
