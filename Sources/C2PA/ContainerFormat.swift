import Ground

/// The asset formats whose embedded C2PA manifest store we read: c2pa-rs's `asset_handlers`
/// (`jpeg_io`, `bmff_io`, `png_io`, `riff_io`, `tiff_io`, `gif_io`, `svg_io`, `jpegxl_io`,
/// `mp3_io`, `flac_io`, `pdf_io`). Told apart by content sniffing of the first bytes
/// (`sniff(_:)`), never by the file name. The raw value is the report's `container` field.
public enum ContainerFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, bmff, png
    /// RIFF with form type `WEBP`, `WAVE`, `AVI ` (and any other form: `riff`).
    case webp, wav, avi, riff
    /// TIFF and its raw-camera profile DNG (a `DNGVersion` tag in IFD0) share one reader.
    case tiff, dng
    case gif, svg, jxl, mp3, flac, pdf

    /// Bytes `sniff` looks at.
    public static let sniffLength = 16

    /// The format the first bytes announce (`head`: at least `sniffLength` bytes when the file
    /// has them), or nil. ID3v2-tagged audio is `mp3` here; `AssetContainer` looks past the tag
    /// for `fLaC` (c2pa-rs puts an ID3v2 tag in front of a FLAC stream). TIFF is `tiff` until
    /// IFD0 is read. SVG is markup: a `<` first (after a byte-order mark and white space).
    public static func sniff(_ head: [UInt8]) -> ContainerFormat? {
        func starts(_ s: [UInt8]) -> Bool { head.starts(with: s) }
        if starts([0xFF, 0xD8]) { return .jpeg }
        if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) { return .bmff }
        if starts(PNGContainer.signature) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        if starts(JXLContainer.signature) { return .jxl }
        if starts(Array("RIFF".utf8)) {
            guard head.count >= 12 else { return .riff }
            switch String(decoding: head[8..<12], as: UTF8.self) {
            case "WEBP": return .webp
            case "WAVE": return .wav
            case "AVI ": return .avi
            default: return .riff
            }
        }
        if starts(Array("fLaC".utf8)) { return .flac }
        if starts(Array("ID3".utf8)) { return .mp3 }
        if head.count >= 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 { return .mp3 } // MPEG audio frame sync
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if SVGContainer.looksLikeMarkup(head) { return .svg }
        return nil
    }

    /// The report's `kind` for a file of this format when nothing signed says otherwise:
    /// `still` (a picture), `video`, `audio` or `document`.
    public var kind: MediaKind {
        switch self {
        case .jpeg, .png, .webp, .tiff, .dng, .gif, .svg, .jxl: .still
        case .bmff, .avi: .video
        case .wav, .mp3, .flac: .audio
        case .pdf: .document
        case .riff: .unknown
        }
    }
}
