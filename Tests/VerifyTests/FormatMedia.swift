import C2PA
import Foundation
import Synthesis

/// The samples of `FormatSamples` (Synthesis), made once per test process, and where each keeps
/// a byte of its media data (a flip there changes the picture or the sound, never the structure).
enum FormatMedia {
    static let formats = FormatSamples.formats
    static func mime(_ f: ContainerFormat) -> String { FormatSamples.mime(f) }
    static func ext(_ f: ContainerFormat) -> String { FormatSamples.fileExtension(f) }

    /// The unsigned sample (cached in the temporary folder for this process).
    static func unsigned(_ f: ContainerFormat) throws -> [UInt8] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("c2pa-formats-\(getpid())-plain.\(ext(f))")
        if !FileManager.default.fileExists(atPath: out.path) {
            let tmp = out.deletingLastPathComponent().appendingPathComponent("\(UUID().uuidString).\(ext(f))")
            try Data(try FormatSamples.unsigned(f, work: NSTemporaryDirectory())).write(to: tmp)
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
