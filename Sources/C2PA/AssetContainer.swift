import Ground

/// One dispatch over every container reader: the format is sniffed from the first bytes
/// (`ContainerFormat.sniff`, never the file name), the reader yields the manifest store bytes
/// and the carrier's byte ranges (c2pa-rs `read_cai` / `HashObjectPositions`), and nothing else —
/// validation is the Verify stage's. Each reader is also callable on its own with a
/// `MemoryByteSource` (one line for a fuzz harness): `PNGContainer.manifest(in:)`, …
public enum AssetContainer {
    /// What reading a file's container found.
    public struct Read: Sendable {
        public let format: ContainerFormat
        public let lookup: ManifestLookup
        /// BMFF only: the box tree (walked once, reused by the BMFF hash and the XMP lookup).
        public let boxes: [BMFFBox]?
        /// The report's `kind` when nothing signed says otherwise (`ContainerFormat.kind`, with
        /// BMFF brands refined: HEIF/AVIF images are `still`, M4A audio `audio`).
        public let kind: MediaKind
    }

    /// The container of `source`; `unsupported` when no reader knows it.
    public static func read(_ source: some ByteSource) throws(ContainerError) -> Read {
        let head = try source.containerPrefix(at: 0, count: ContainerFormat.sniffLength)
        guard var format = ContainerFormat.sniff(head) else { throw .unsupported }
        if format == .mp3, let t = try ID3Container.header(of: source),
           try source.containerPrefix(at: t.range.upperBound, count: 4) == Array("fLaC".utf8) {
            format = .flac
        }
        switch format {
        case .jpeg:
            return Read(format: format, lookup: try JPEGContainer.manifest(in: source), boxes: nil, kind: format.kind)
        case .bmff:
            let tree = try BMFFBox.parse(source)
            return Read(format: format, lookup: try BMFFContainer.manifest(in: source, boxes: tree), boxes: tree,
                        kind: try bmffKind(source, tree))
        case .png: return Read(format: format, lookup: try PNGContainer.manifest(in: source), boxes: nil, kind: format.kind)
        case .webp, .wav, .avi, .riff:
            return Read(format: format, lookup: try RIFFContainer.manifest(in: source), boxes: nil, kind: format.kind)
        case .tiff, .dng:
            let lookup = try TIFFContainer.manifest(in: source)
            let f: ContainerFormat = try TIFFContainer.isDNG(source) ? .dng : .tiff
            return Read(format: f, lookup: lookup, boxes: nil, kind: f.kind)
        case .gif: return Read(format: format, lookup: try GIFContainer.manifest(in: source), boxes: nil, kind: format.kind)
        case .svg: return Read(format: format, lookup: try SVGContainer.manifest(in: source), boxes: nil, kind: format.kind)
        case .jxl: return Read(format: format, lookup: try JXLContainer.manifest(in: source), boxes: nil, kind: format.kind)
        case .mp3: return Read(format: format, lookup: try ID3Container.manifest(in: source), boxes: nil, kind: format.kind)
        case .flac:
            return Read(format: format, lookup: try ID3Container.manifest(in: source, flac: true), boxes: nil, kind: format.kind)
        case .pdf: return Read(format: format, lookup: try PDFContainer.manifest(in: source), boxes: nil, kind: format.kind)
        }
    }

    /// The XMP packet of a file whose container was read, nil when there is none or it cannot be
    /// read (c2pa-rs's `read_xmp` gives none then too).
    public static func xmpPacket(_ read: Read, source: some ByteSource) -> [UInt8]? {
        do throws(ContainerError) {
            switch read.format {
            case .jpeg: return try XMPProvenance.packet(inJPEG: source)
            case .bmff:
                let boxes: [BMFFBox]
                if let b = read.boxes { boxes = b } else { boxes = try BMFFBox.parse(source) }
                return try XMPProvenance.packet(inBMFF: source, boxes: boxes)
            case .png: return try PNGContainer.xmpPacket(in: source)
            case .webp, .wav, .avi, .riff: return try RIFFContainer.xmpPacket(in: source)
            case .tiff, .dng: return try TIFFContainer.xmpPacket(in: source)
            case .gif: return try GIFContainer.xmpPacket(in: source)
            case .svg: return try SVGContainer.xmpPacket(in: source)
            case .jxl: return try JXLContainer.xmpPacket(in: source)
            case .mp3, .flac: return try ID3Container.xmpPacket(in: source)
            case .pdf: return try PDFContainer.xmpPacket(in: source)
            }
        } catch {
            return nil
        }
    }

    /// `still` for HEIF/AVIF image brands, `audio` for M4A/M4B, else `video` (the kind BMFF had).
    static func bmffKind(_ source: some ByteSource, _ tree: [BMFFBox]) throws(ContainerError) -> MediaKind {
        guard let ftyp = tree.first, ftyp.type == "ftyp", ftyp.bodyRange.count >= 4 else { return .video }
        let major = String(decoding: try source.containerBytes(at: ftyp.bodyRange.lowerBound, count: 4), as: UTF8.self)
        switch major {
        case "heic", "heix", "heim", "heis", "mif1", "mif2", "avif", "avci", "jxs ": return .still
        case "M4A ", "M4B ": return .audio
        default: return .video
        }
    }
}
