/// GIF blocks and the C2PA manifest store carried in an application extension (C2PA 2.x,
/// A.3.7; c2pa-rs `gif_io.rs`):
///
///     "GIF87a"|"GIF89a"  screen descriptor(7)  [global colour table]  blocks…  0x3B
///     application extension: 21 FF 0B  "C2PA_GIF" 01 00 00  { n(1) data(n) } … 00
///
/// The store is the extension's data sub-blocks joined; the carrier range is the whole
/// extension, introducer to terminator (the span c2pa-rs excludes). As in c2pa-rs, the store is
/// looked for only before the first image descriptor, and a block that does not hold on the way
/// is an error (an extension label other than FF, FE, F9, 01; an application block size ≠ 11; a
/// sub-block or table running past the end). XMP (`XMP Data` `XMP`) is looked for in every
/// block to the trailer.
public enum GIFContainer {
    /// Blocks walked before giving up.
    public static let maximumBlocks = 1 << 20
    static let c2paID = Array("C2PA_GIF".utf8) + [0x01, 0x00, 0x00]
    static let xmpID = Array("XMP Data".utf8) + Array("XMP".utf8)

    /// An application extension: its 11-byte identifier + authentication code, where it lies,
    /// and where its data sub-blocks start.
    public struct ApplicationBlock: Sendable, Equatable {
        public let identifier: [UInt8]
        public let range: Range<Int64>
        public let subBlocksStart: Int64
    }

    /// The application extensions up to the first image descriptor (`untilImage`) or the trailer.
    public static func applicationBlocks(of source: some ByteSource, untilImage: Bool) throws(ContainerError) -> [ApplicationBlock] {
        let h = try source.containerPrefix(at: 0, count: 13)
        guard h.count >= 6, ["GIF87a", "GIF89a"].contains(String(decoding: h[0..<6], as: UTF8.self)) else { throw .unsupported }
        guard h.count == 13 else { throw .truncated(offset: 6) }
        var at: Int64 = 13
        if h[10] & 0x80 != 0 { at += 3 << (Int64(h[10] & 0x07) + 1) }
        var out: [ApplicationBlock] = []
        var blocks = 0
        while true {
            blocks += 1
            guard blocks <= maximumBlocks else { throw .tooManyParts(offset: at) }
            let start = at
            let intro = try source.containerBytes(at: at, count: 1)[0]
            switch intro {
            case 0x3B: return out
            case 0x2C: // image descriptor (9) [local colour table] LZW minimum code size, sub-blocks
                if untilImage { return out }
                let d = try source.containerBytes(at: at + 1, count: 9)
                at += 10
                if d[8] & 0x80 != 0 { at += 3 << (Int64(d[8] & 0x07) + 1) }
                at = try skipSubBlocks(source, from: at + 1)
            case 0x21:
                let label = try source.containerBytes(at: at + 1, count: 1)[0]
                switch label {
                case 0xFF:
                    let size = try source.containerBytes(at: at + 2, count: 1)[0]
                    guard size == 0x0B else { throw .badBlock(offset: at) }
                    let id = try source.containerBytes(at: at + 3, count: 11)
                    let end = try skipSubBlocks(source, from: at + 14)
                    out.append(ApplicationBlock(identifier: id, range: start..<end, subBlocksStart: at + 14))
                    at = end
                case 0xFE: at = try skipSubBlocks(source, from: at + 2)
                case 0xF9: at += 8 // c2pa-rs skips the graphic control extension's fixed 6 bytes
                case 0x01: at = try skipSubBlocks(source, from: at + 2 + 12)
                default: throw .badBlock(offset: at)
                }
            default: throw .badBlock(offset: at)
            }
            guard at <= source.count else { throw .truncated(offset: start) }
        }
    }

    /// The offset after the terminator of the data sub-blocks starting at `from`.
    static func skipSubBlocks(_ source: some ByteSource, from: Int64) throws(ContainerError) -> Int64 {
        var at = from
        while true {
            let n = try source.containerBytes(at: at, count: 1)[0]
            at += 1 + Int64(n)
            if n == 0 { return at }
            guard at <= source.count else { throw .truncated(offset: from) }
        }
    }

    /// The data sub-blocks of `block` joined.
    static func joinedSubBlocks(_ source: some ByteSource, _ block: ApplicationBlock, limit: Int) throws(ContainerError) -> [UInt8] {
        let n = block.range.upperBound - block.subBlocksStart
        guard n <= Int64(limit) + n / 255 + 2 else { throw .manifestTooLarge }
        let raw = try source.containerBytes(at: block.subBlocksStart, count: Int(n))
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count, raw[i] != 0 {
            let len = Int(raw[i])
            out += raw[(i + 1)..<min(raw.count, i + 1 + len)]
            i += 1 + len
        }
        return out
    }

    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        let stores = try applicationBlocks(of: source, untilImage: true).filter { $0.identifier == c2paID }
        guard let b = stores.first else { return .absent(reason: "none") }
        guard stores.count == 1 else { throw .tooManyManifestStores }
        let data = try joinedSubBlocks(source, b, limit: ContainerLimits.maximumStoreSize)
        return .found(ManifestLocation(storeBytes: data, ranges: [b.range]))
    }

    /// The XMP packet of the first `XMP Data` extension: its sub-blocks joined, less the
    /// 257-byte "magic trailer" (01 FF FE … 00), which must be there — c2pa-rs's reading.
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        guard let b = try applicationBlocks(of: source, untilImage: false).first(where: { $0.identifier == xmpID }) else { return nil }
        let d = try joinedSubBlocks(source, b, limit: ContainerLimits.maximumXMP)
        guard d.count >= 257, d[d.count - 257] == 1,
              d.suffix(256).elementsEqual((0...255).reversed().map { UInt8($0) }) else { return nil }
        return Array(d.dropLast(257))
    }
}
