import Foundation
import Ground

/// The format of a stored file, named as PRONOM (The National Archives' format registry)
/// names it, with its PUID where PRONOM has one: what METS.xml's PREMIS objects and the
/// report's file tables say. Recognised by the file's first bytes (and, for JSON, its
/// extension), over the formats the capture app writes and the archive stores:
///
/// | format | version | PUID | MIME | recognised by |
/// |---|---|---|---|---|
/// | JPEG File Interchange Format | 1.00 / 1.01 / 1.02 | fmt/42 / fmt/43 / fmt/44 | image/jpeg | `FF D8 FF`, APP0 `JFIF\0` and its version bytes |
/// | JPEG (no JFIF header) | — | — | image/jpeg | `FF D8 FF` otherwise |
/// | MPEG-4 Media File | — | fmt/199 | video/mp4 | `ftyp` box at offset 4, brand not `qt  ` |
/// | QuickTime | — | x-fmt/384 | video/quicktime | `ftyp` brand `qt  ` |
/// | Apple Core Audio Format | — | fmt/416 | audio/x-caf | `caff` |
/// | Portable Network Graphics | 1.0 | fmt/11 | image/png | the PNG signature |
/// | JSON Data Interchange Format | — | fmt/817 | application/json | `.json`, first non-blank byte `{` or `[` |
/// | JSON Lines | — | — (none in PRONOM) | application/jsonl | `.jsonl` |
/// | unidentified | — | — | application/octet-stream | anything else |
///
/// `FileFormatTests` checks every row that the test dumps hold against `fido` (opf-fido,
/// PRONOM signatures v109) on the same files; docs/export.md says where fido differs (it has
/// no signature for plain JSON and guesses fmt/1311 "Tweet JSON" from the extension; it
/// leaves JSON Lines unidentified).
public struct FileFormat: Sendable, Equatable {
    public var name: String
    public var version: String?
    /// The PRONOM unique identifier (`fmt/44`), nil when PRONOM has no entry.
    public var puid: String?
    public var mime: String

    public init(name: String, version: String?, puid: String?, mime: String) {
        self.name = name
        self.version = version
        self.puid = puid
        self.mime = mime
    }

    static let unidentified = FileFormat(name: "unidentified", version: nil, puid: nil, mime: "application/octet-stream")

    /// The format of the file at `path` (its first 64 bytes and its name).
    public static func identify(path: String) -> FileFormat {
        guard let file = try? FileByteSource(opening: path, limit: FileLimits.defaultMaxFileBytes),
              let head = try? file.read(at: 0, count: 64) else { return .unidentified }
        return identify(head: head, name: (path as NSString).lastPathComponent)
    }

    /// The format of a file whose first bytes are `head` and whose name is `name`.
    public static func identify(head b: [UInt8], name: String) -> FileFormat {
        let lower = name.lowercased()
        if b.starts(with: [0xFF, 0xD8, 0xFF]) {
            if b.count >= 13, b[3] == 0xE0, Array(b[6..<11]) == Array("JFIF\0".utf8), b[11] == 1 {
                switch b[12] {
                case 0: return FileFormat(name: "JPEG File Interchange Format", version: "1.00", puid: "fmt/42", mime: "image/jpeg")
                case 1: return FileFormat(name: "JPEG File Interchange Format", version: "1.01", puid: "fmt/43", mime: "image/jpeg")
                case 2: return FileFormat(name: "JPEG File Interchange Format", version: "1.02", puid: "fmt/44", mime: "image/jpeg")
                default: break
                }
            }
            return FileFormat(name: "JPEG", version: nil, puid: nil, mime: "image/jpeg")
        }
        if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) {
            if Array(b[8..<12]) == Array("qt  ".utf8) {
                return FileFormat(name: "QuickTime", version: nil, puid: "x-fmt/384", mime: "video/quicktime")
            }
            return FileFormat(name: "MPEG-4 Media File", version: nil, puid: "fmt/199", mime: "video/mp4")
        }
        if b.starts(with: Array("caff".utf8)) {
            return FileFormat(name: "Apple Core Audio Format", version: nil, puid: "fmt/416", mime: "audio/x-caf")
        }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return FileFormat(name: "Portable Network Graphics", version: "1.0", puid: "fmt/11", mime: "image/png")
        }
        let first = b.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if lower.hasSuffix(".jsonl") { return FileFormat(name: "JSON Lines", version: nil, puid: nil, mime: "application/jsonl") }
        if lower.hasSuffix(".json"), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return FileFormat(name: "JSON Data Interchange Format", version: nil, puid: "fmt/817", mime: "application/json")
        }
        return .unidentified
    }
}
