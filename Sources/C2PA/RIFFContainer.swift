/// RIFF (WebP, WAV, AVI) and the C2PA manifest store carried in a top-level `C2PA` chunk
/// (C2PA 2.x, A.3.5; c2pa-rs `riff_io.rs`):
///
///     "RIFF" size(u32 LE) formType(4) { id(4) size(u32 LE) data(size) [pad byte when size is odd] } …
///
/// Only the children of the first `RIFF` chunk are walked (c2pa-rs: "assume C2PA data will be in
/// the first chunk"; an AVI's later `RIFF`/`AVIX` chunks are not read). The store is the data of
/// the `C2PA` chunk (c2pa-rs writes it last); the carrier range is its header and data, without
/// the pad byte — the span c2pa-rs excludes (the pad is hashed). No length is trusted: the
/// `RIFF` size must fit the file, every child must fit the `RIFF` chunk (`truncated`); a last
/// child without its pad byte at the very end is accepted.
public enum RIFFContainer {
    /// Top-level chunks walked before giving up.
    public static let maximumChunks = 1 << 18

    public struct Chunk: Sendable, Equatable {
        public let id: String
        /// Header and data (no pad byte).
        public let range: Range<Int64>
        public var dataRange: Range<Int64> { (range.lowerBound + 8)..<range.upperBound }
    }

    /// The form type (`WEBP`, `WAVE`, `AVI `, …) and the top-level chunks of the first `RIFF`.
    public static func chunks(of source: some ByteSource) throws(ContainerError) -> (form: String, chunks: [Chunk]) {
        let h = try source.containerPrefix(at: 0, count: 12)
        guard h.count == 12, h.starts(with: Array("RIFF".utf8)), let size = LittleEndian.u32(h, 4) else { throw .unsupported }
        let end = 8 + Int64(size)
        guard size >= 4 else { throw .badChunk(offset: 0) }
        guard end <= source.count else { throw .truncated(offset: 0) }
        var out: [Chunk] = []
        var at: Int64 = 12
        while at < end {
            guard end - at >= 8 else { throw .truncated(offset: at) }
            let ch = try source.containerBytes(at: at, count: 8)
            let length = Int64(LittleEndian.u32(ch, 4) ?? 0)
            let dataEnd = at + 8 + length
            guard dataEnd <= end else { throw .truncated(offset: at) }
            out.append(Chunk(id: String(decoding: ch[0..<4], as: UTF8.self), range: at..<dataEnd))
            guard out.count <= maximumChunks else { throw .tooManyParts(offset: at) }
            at = dataEnd + (length & 1)
            if at > end { break } // the last child's pad byte missing at the very end
        }
        return (String(decoding: h[8..<12], as: UTF8.self), out)
    }

    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        let stores = try chunks(of: source).chunks.filter { $0.id == "C2PA" }
        guard let c = stores.first else { return .absent(reason: "none") }
        guard stores.count == 1 else { throw .tooManyManifestStores }
        guard c.dataRange.count <= Int64(ContainerLimits.maximumStoreSize) else { throw .manifestTooLarge }
        let data = try source.containerBytes(at: c.dataRange.lowerBound, count: Int(c.dataRange.count))
        return .found(ManifestLocation(storeBytes: data, ranges: [c.range]))
    }

    /// The XMP packet: the data of the first top-level `XMP ` chunk, as c2pa-rs reads it.
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        guard let c = try chunks(of: source).chunks.first(where: { $0.id == "XMP " }),
              c.dataRange.count <= Int64(ContainerLimits.maximumXMP) else { return nil }
        return try source.containerBytes(at: c.dataRange.lowerBound, count: Int(c.dataRange.count))
    }
}
