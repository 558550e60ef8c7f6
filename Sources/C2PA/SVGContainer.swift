/// SVG and the C2PA manifest store carried as base64 text in `<metadata>` (C2PA 2.x, A.3.8;
/// c2pa-rs `svg_io.rs`):
///
///     <svg …> … <metadata> … <c2pa:manifest>BASE64 OF THE STORE</c2pa:manifest> … </metadata> … </svg>
///
/// As c2pa-rs reads it: the element path must be exactly `svg` / `metadata` / `c2pa:manifest`
/// (names as written); every run of text directly on that path must decode as strict base64
/// (`badBase64`), and the last one is the store. The carrier range is that run of base64 text —
/// the span c2pa-rs excludes from its data hash. The markup is scanned by `MarkupScanner`
/// (streaming, bounded; `badXML`, `depthExceeded`). A document whose root element is not `svg`
/// is not an SVG (`unsupported`); c2pa-rs, told the MIME type, calls a second-level element
/// under another root an invalid signature.
public enum SVGContainer {
    static let manifestPath = ["svg", "metadata", "c2pa:manifest"]
    static let xmpPacketID = Array("W5M0MpCehiHzreSzNTczkc9d".utf8)

    /// Whether the first bytes can start markup: `<` after an optional byte-order mark and white space.
    public static func looksLikeMarkup(_ head: [UInt8]) -> Bool {
        var b = head[...]
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
        guard let first = b.first(where: { !MarkupScanner<MemoryByteSource>.isSpace($0) }) else { return false }
        return first == UInt8(ascii: "<")
    }

    /// One pass over the document: the store's text range (the last run on the manifest path)
    /// and the XMP packet's range (from the `xpacket` begin instruction to the next `xpacket`).
    static func scan(_ source: some ByteSource) throws(ContainerError) -> (manifest: Range<Int64>?, xmp: Range<Int64>?) {
        var s = MarkupScanner(source)
        var manifest: Range<Int64>?
        var xmpStart: Int64?
        var xmp: Range<Int64>?
        var sawRoot = false
        while let e = try s.next() {
            switch e {
            case .start(let name, _):
                if !sawRoot {
                    sawRoot = true
                    guard name == "svg" else { throw .unsupported }
                }
            case .text(let r) where s.path == manifestPath:
                guard r.count <= Int64(Base64.encodedLength(ContainerLimits.maximumStoreSize)) else { throw .manifestTooLarge }
                manifest = r
                guard Base64.decode(try source.containerBytes(at: r.lowerBound, count: Int(r.count))) != nil else {
                    throw .badBase64(offset: r.lowerBound)
                }
            case .processingInstruction(let r, let body) where xmp == nil && contains(body, Array("xpacket".utf8)):
                if contains(body, xmpPacketID) { xmpStart = r.lowerBound } else if let start = xmpStart { xmp = start..<r.upperBound }
            default: break
            }
        }
        guard sawRoot else { throw .unsupported }
        return (manifest, xmp)
    }

    static func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= hay.count else { return false }
        return (0...(hay.count - needle.count)).contains { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        guard let r = try scan(source).manifest else { return .absent(reason: "none") }
        guard let store = Base64.decode(try source.containerBytes(at: r.lowerBound, count: Int(r.count))) else {
            throw .badBase64(offset: r.lowerBound)
        }
        guard !store.isEmpty else { return .absent(reason: "none") }
        return .found(ManifestLocation(storeBytes: store, ranges: [r]))
    }

    /// The XMP packet, `<?xpacket begin … W5M0MpCehiHzreSzNTczkc9d?>` to the closing
    /// `<?xpacket end…?>` included, as c2pa-rs reads it.
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        guard let r = try scan(source).xmp, r.count <= Int64(ContainerLimits.maximumXMP) else { return nil }
        return try source.containerBytes(at: r.lowerBound, count: Int(r.count))
    }
}
