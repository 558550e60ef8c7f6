/// PNG chunks and the C2PA manifest store carried in a `caBX` chunk (C2PA 2.x, A.3.3; c2pa-rs
/// `png_io.rs`):
///
///     89 50 4E 47 0D 0A 1A 0A   { length(u32 BE) type(4) data(length) crc(u32 BE) } … IEND
///
/// The store is the whole data of the one `caBX` chunk (c2pa-rs writes it right after `IHDR`);
/// the carrier range is the whole chunk, length to CRC — the span c2pa-rs excludes from its
/// `c2pa.hash.data`. The walk reads chunk headers only, never trusts a length (a chunk running
/// past the end is `truncated`), and ends at `IEND`: a file without one is `truncated`, as in
/// c2pa-rs ("PNG out of range"). Bytes after `IEND` are not walked (the data hash covers them).
public enum PNGContainer {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Chunks walked before giving up (`tooManyParts`): 4 Mi chunks (a 4 GB file of libpng's 8 KiB IDATs is 0.5 Mi).
    public static let maximumChunks = 1 << 22

    /// One chunk: its type and where it lies.
    public struct Chunk: Sendable, Equatable {
        public let type: String
        /// Length field to CRC, inclusive.
        public let range: Range<Int64>
        public var dataRange: Range<Int64> { (range.lowerBound + 8)..<(range.upperBound - 4) }
    }

    /// Every chunk from the signature to `IEND`.
    public static func chunks(of source: some ByteSource) throws(ContainerError) -> [Chunk] {
        var out: [Chunk] = []
        try walk(source) { out.append($0) }
        return out
    }

    /// Calls `visit` with each chunk from the signature to `IEND`, holding none (a file of
    /// millions of empty chunks walks in constant memory).
    public static func walk(_ source: some ByteSource, _ visit: (Chunk) throws(ContainerError) -> Void) throws(ContainerError) {
        guard try source.containerPrefix(at: 0, count: 8) == signature else { throw .unsupported }
        var at: Int64 = 8
        var n = 0
        while true {
            let h = try source.containerBytes(at: at, count: 8)
            let length = Int64(BigEndian.u32(h, 0) ?? 0)
            guard length <= 0x7FFF_FFFF, let type = String(validating: h[4..<8], as: UTF8.self) else { throw .badChunk(offset: at) }
            let end = at + 12 + length
            guard end <= source.count else { throw .truncated(offset: at) }
            n += 1
            guard n <= maximumChunks else { throw .tooManyParts(offset: at) }
            try visit(Chunk(type: type, range: at..<end))
            if type == "IEND" { return }
            at = end
        }
    }

    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        var stores: [Chunk] = []
        try walk(source) { if $0.type == "caBX" { stores.append($0) } }
        guard let c = stores.first else { return .absent(reason: "none") }
        guard stores.count == 1 else { throw .tooManyManifestStores }
        guard c.dataRange.count <= Int64(ContainerLimits.maximumStoreSize) else { throw .manifestTooLarge }
        let data = try source.containerBytes(at: c.dataRange.lowerBound, count: Int(c.dataRange.count))
        let crc = try source.containerBytes(at: c.dataRange.upperBound, count: 4)
        let matches = CRC32.checksum(Array("caBX".utf8), data) == BigEndian.u32(crc, 0)
        return .found(ManifestLocation(storeBytes: data, ranges: [c.range], carrierChecksumMatches: matches))
    }

    /// The XMP packet: the text of the first uncompressed `iTXt` chunk with keyword
    /// `XML:com.adobe.xmp` (keyword, compression flag and method, language tag, translated
    /// keyword, text), as c2pa-rs reads it; nil when there is none.
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        var texts: [Chunk] = []
        try walk(source) { if $0.type == "iTXt" { texts.append($0) } }
        for c in texts where c.dataRange.count <= Int64(ContainerLimits.maximumXMP) {
            let d = try source.containerBytes(at: c.dataRange.lowerBound, count: Int(c.dataRange.count))
            guard let k = d.firstIndex(of: 0), Array(d[..<k]) == Array("XML:com.adobe.xmp".utf8), k + 2 < d.count,
                  d[k + 1] == 0 else { continue }
            guard let lang = d[(k + 3)...].firstIndex(of: 0), let trans = d[(lang + 1)...].firstIndex(of: 0) else { continue }
            return Array(d[(trans + 1)...])
        }
        return nil
    }
}
