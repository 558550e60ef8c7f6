import Ground

/// An ISO BMFF box (ISO/IEC 14496-12) located in a byte source.
///
///     size(u32) type(4cc) [largesize(u64) if size == 1] [usertype(16) if type == 'uuid'] body
///
/// The walk follows c2pa-rs's BMFF reader (`build_bmff_tree`) so that exclusion xpaths select
/// the same boxes, while never trusting a length:
/// - container boxes (`moov/trak/mdia/minf/stbl`, `moof/traf`, `meta`, …, c2pa-rs's list) are
///   walked into; a QuickTime `meta` (a plain box whose body starts with its `hdlr` child, no
///   FullBox version/flags) is told apart from the ISO FullBox `meta` by peeking for `hdlr`;
/// - size 0 runs to the end of the file (top level) or, for an `mdat`, of its parent; an `mdat`
///   whose size runs past the end of its space is cut at that end (c2pa-rs does the same for
///   truncated captures); any other box that overruns is `badBoxSize`;
/// - bytes after the last box too few for a header are `truncated` (c2pa-rs ignores fewer than
///   8 trailing bytes at the top level; we reject trailing data);
/// - boxes nested 32 deep are refused (`depthExceeded`), c2pa-rs's `MAX_BOX_DEPTH`.
public struct BMFFBox: Sendable, Equatable {
    public let type: String
    public let userType: [UInt8]?
    /// The whole box, header included.
    public let range: Range<Int64>
    /// Header length (8, 16, plus 16 for `uuid`).
    public let headerLength: Int
    /// Slash path from the top, e.g. `/moov/trak`.
    public let path: String
    /// FullBox version and flags, for the box types known to be FullBoxes (and the C2PA `uuid`).
    public let version: UInt8?
    public let flags: UInt32?
    public let children: [BMFFBox]

    public var bodyRange: Range<Int64> { (range.lowerBound + Int64(headerLength))..<range.upperBound }

    /// The C2PA ContentProvenanceBox usertype `d8fec3d6-1b0e-483c-9297-5828877ec481`.
    public static let c2paUserType: [UInt8] = [0xD8, 0xFE, 0xC3, 0xD6, 0x1B, 0x0E, 0x48, 0x3C,
                                               0x92, 0x97, 0x58, 0x28, 0x87, 0x7E, 0xC4, 0x81]

    /// Boxes walked into (c2pa-rs's container list).
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "moof", "traf", "edts", "udta",
                                           "dinf", "tref", "treg", "mvex", "mfra", "meta", "schi"]
    /// Boxes whose first 4 body bytes are FullBox version and flags (c2pa-rs `FULL_BOX_TYPES`).
    static let fullBoxes: Set<String> = [
        "pdin", "mvhd", "tkhd", "mdhd", "hdlr", "nmhd", "elng", "stsd", "stdp", "stts", "ctts", "cslg",
        "stss", "stsh", "elst", "dref", "stsz", "stz2", "stsc", "stco", "co64", "padb", "subs",
        "saiz", "saio", "mehd", "trex", "mfhd", "tfhd", "trun", "tfra", "mfro", "tfdt", "leva", "trep",
        "assp", "sbgp", "sgpd", "csgp", "cprt", "tsel", "kind", "meta", "xml ", "bxml", "iloc", "pitm",
        "ipro", "infe", "iinf", "iref", "ipma", "schm", "fiin", "fpar", "fecr", "gitn", "fire", "stri",
        "stsg", "stvi", "csch", "sidx", "ssix", "prft", "srpp", "vmhd", "smhd", "srat", "chnl", "dmix",
        "txtC", "mime", "uri ", "uriI", "hmhd", "sthd", "vvhd", "medc",
    ]
    /// Boxes nest at most this deep (top level = 0): c2pa-rs refuses a box at depth 32.
    public static let maximumDepth = 31
    public static let maximumBoxes = 1_000_000

    /// Top-level boxes of the source with their descendants on container paths.
    public static func parse(_ source: some ByteSource) throws(ContainerError) -> [BMFFBox] {
        var budget = maximumBoxes
        return try parse(source, in: 0..<source.count, parentPath: "", depth: 0, budget: &budget)
    }

    static func parse(_ source: some ByteSource, in span: Range<Int64>, parentPath: String, depth: Int,
                      budget: inout Int) throws(ContainerError) -> [BMFFBox] {
        guard depth <= maximumDepth else { throw .depthExceeded(offset: span.lowerBound) }
        var out: [BMFFBox] = []
        var at = span.lowerBound
        while at < span.upperBound {
            budget -= 1
            guard budget > 0 else { throw .badBoxSize(offset: at) }
            let left = span.upperBound - at
            guard left >= 8 else { throw .truncated(offset: at) }
            let h: [UInt8]
            do { h = try source.readExactly(at: at, count: Int(min(left, 48))) } catch { throw .io(error) }
            guard let size32 = BigEndian.u32(h, 0), let t = BigEndian.slice(h, 4, 4) else { throw .truncated(offset: at) }
            let type = BigEndian.fourCC(t)
            var headerLength = 8
            var size = Int64(size32)
            if size32 == 1 {
                guard let l = BigEndian.u64(h, 8), l <= UInt64(Int64.max) else { throw .truncated(offset: at) }
                size = Int64(l)
                headerLength = 16
            } else if size32 == 0 {
                guard depth == 0 || type == "mdat" else { throw .badBoxSize(offset: at) }
                size = left
            }
            if size > left && type == "mdat" { size = left }
            guard size >= Int64(headerLength), size <= left else { throw .badBoxSize(offset: at) }
            var userType: [UInt8]?
            if type == "uuid" {
                guard let u = BigEndian.slice(h, headerLength, 16), size >= Int64(headerLength + 16) else {
                    throw .badBoxSize(offset: at)
                }
                userType = u
                headerLength += 16
            }
            // ISO `meta` is a FullBox; QuickTime's `meta` is a plain box starting with `hdlr`.
            let quickTimeMeta = type == "meta" && size >= Int64(headerLength + 8)
                && BigEndian.slice(h, headerLength + 4, 4) == Array("hdlr".utf8)
            var version: UInt8?
            var flags: UInt32?
            let isFull = (fullBoxes.contains(type) && !quickTimeMeta) || userType == c2paUserType
            if isFull, size >= Int64(headerLength + 4), let vf = BigEndian.u32(h, headerLength) {
                version = UInt8(vf >> 24)
                flags = vf & 0xFF_FFFF
            }
            let path = parentPath + "/" + type
            let range = at..<(at + size)
            var children: [BMFFBox] = []
            if containers.contains(type) {
                let bodyStart = range.lowerBound + Int64(headerLength) + (type == "meta" && !quickTimeMeta ? 4 : 0)
                if bodyStart < range.upperBound {
                    children = try parse(source, in: bodyStart..<range.upperBound, parentPath: path,
                                         depth: depth + 1, budget: &budget)
                }
            }
            out.append(BMFFBox(type: type, userType: userType, range: range, headerLength: headerLength, path: path,
                               version: version, flags: flags, children: children))
            at = range.upperBound
        }
        return out
    }

    /// Every box in the tree whose path equals `xpath`, in file order.
    public static func boxes(at xpath: String, in roots: [BMFFBox]) -> [BMFFBox] {
        var out: [BMFFBox] = []
        func walk(_ bs: [BMFFBox]) {
            for b in bs {
                if b.path == xpath { out.append(b) }
                if xpath.hasPrefix(b.path + "/") { walk(b.children) }
            }
        }
        walk(roots)
        return out
    }
}
