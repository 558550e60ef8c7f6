/// The JPEG XL container (ISO/IEC 18181-2) and the C2PA manifest store carried in a top-level
/// `jumb` box (C2PA 2.x, A.3.11; c2pa-rs `jpegxl_io.rs`):
///
///     00 00 00 0C "JXL " 0D 0A 87 0A   { size(u32) type(4) [largesize(u64) when size = 1] payload } …
///
/// The store is the whole `jumb` box whose first child is a `jumd` labelled `c2pa` (toggles
/// with requestable and label set) — the box *is* the JUMBF superbox, header included; other
/// `jumb` boxes (Exif in JUMBF, …) are not stores. The carrier range is that box, the span
/// c2pa-rs excludes. Size 0 runs to the end of the file; a box past the end, or shorter than its
/// header, is an error; more than 1,024 boxes is refused, as in c2pa-rs. A naked codestream
/// (`FF 0A`) cannot carry a store and is not this container.
public enum JXLContainer {
    public static let signature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    /// c2pa-rs `MAX_JXL_BOX_COUNT`.
    public static let maximumBoxes = 1024

    public struct Box: Sendable, Equatable {
        public let type: String
        public let range: Range<Int64>
        public let headerLength: Int
        public var payloadRange: Range<Int64> { (range.lowerBound + Int64(headerLength))..<range.upperBound }
    }

    public static func boxes(of source: some ByteSource) throws(ContainerError) -> [Box] {
        guard try source.containerPrefix(at: 0, count: 12) == signature else { throw .unsupported }
        var out: [Box] = []
        var at: Int64 = 0
        while at < source.count {
            let h = try source.containerBytes(at: at, count: 8)
            let size32 = BigEndian.u32(h, 0) ?? 0
            var header = 8
            var end: Int64
            switch size32 {
            case 0: end = source.count
            case 1:
                header = 16
                guard let large = BigEndian.u64(try source.containerBytes(at: at + 8, count: 8), 0),
                      large <= UInt64(Int64.max) else { throw .badChunk(offset: at) }
                end = at + Int64(large)
            default: end = at + Int64(size32)
            }
            guard end >= at + Int64(header) else { throw .badChunk(offset: at) }
            guard end <= source.count else { throw .truncated(offset: at) }
            out.append(Box(type: String(decoding: h[4..<8], as: UTF8.self), range: at..<end, headerLength: header))
            guard out.count <= maximumBoxes else { throw .tooManyParts(offset: at) }
            at = end
        }
        return out
    }

    /// Whether a `jumb` payload starts with a `jumd` labelled `c2pa` (c2pa-rs `jumb_data_has_c2pa_label`).
    static func isStore(_ payloadHead: [UInt8]) -> Bool {
        guard payloadHead.count >= 25, Array(payloadHead[4..<8]) == Array("jumd".utf8), payloadHead[24] & 0x03 == 0x03 else { return false }
        let label = payloadHead[25...].prefix { $0 != 0 }
        return Array(label) == Array("c2pa".utf8)
    }

    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        var found: Box?
        for b in try boxes(of: source) where b.type == "jumb" {
            let head = try source.containerPrefix(at: b.payloadRange.lowerBound, count: min(30, Int(b.payloadRange.count)))
            guard isStore(head) else { continue }
            if found != nil { throw .tooManyManifestStores }
            found = b
        }
        guard let b = found else { return .absent(reason: "none") }
        guard b.range.count <= Int64(ContainerLimits.maximumStoreSize) else { throw .manifestTooLarge }
        let store = try source.containerBytes(at: b.range.lowerBound, count: Int(b.range.count))
        return .found(ManifestLocation(storeBytes: store, ranges: [b.range]))
    }

    /// The XMP packet: the payload of the first `xml ` box (a Brotli-compressed `brob` box is
    /// not read: no Brotli decoder here; c2pa-rs reads one).
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        guard let b = try boxes(of: source).first(where: { $0.type == "xml " }),
              b.payloadRange.count <= Int64(ContainerLimits.maximumXMP) else { return nil }
        return try source.containerBytes(at: b.payloadRange.lowerBound, count: Int(b.payloadRange.count))
    }
}
