import Ground

/// Big-endian reads and the box walk of an ISO BMFF / QuickTime file (ISO/IEC 14496-12 §4.2)
/// for `MovieHeader`, over a `SourceWindow` (the few kB of box headers and `moov` tables are
/// read; an `mdat` body never is):
///
///     box = size:u32 type:4cc [largesize:u64 if size == 1] body   (size 0: to the end of the file)
///
/// No length is trusted: a box that does not fit in its parent, bytes after the last box too
/// few for a header, more than `maximumBoxes` boxes or a nesting deeper than `maximumDepth`
/// are each a `MovieHeaderError`.
struct MovieBoxes {
    struct Box {
        let type: UInt32
        /// Offset of the box header.
        let start: Int
        let body: Range<Int>
    }

    let window: SourceWindow
    var budget = MovieBoxes.maximumBoxes

    /// Boxes walked per file before giving up.
    static let maximumBoxes = 100_000
    /// `moov/trak/mdia/minf/stbl/stsd/<entry>/wave/esds` is 9 deep; nothing the reader needs is deeper.
    static let maximumDepth = 10

    init(_ source: any ByteSource) { window = SourceWindow(source) }

    var count: Int { window.count }

    func u8(_ i: Int) throws(MovieHeaderError) -> UInt8 {
        guard let b = window.byte(i) else { throw .truncated(at: i) }
        return b
    }

    func u16(_ i: Int) throws(MovieHeaderError) -> UInt16 { UInt16(try u8(i)) << 8 | UInt16(try u8(i + 1)) }

    func u32(_ i: Int) throws(MovieHeaderError) -> UInt32 { UInt32(try u16(i)) << 16 | UInt32(try u16(i + 2)) }

    func u64(_ i: Int) throws(MovieHeaderError) -> UInt64 { UInt64(try u32(i)) << 32 | UInt64(try u32(i + 4)) }

    func bytes(_ r: Range<Int>) throws(MovieHeaderError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(r.count)
        for i in r { out.append(try u8(i)) }
        return out
    }

    /// The boxes filling `span` exactly, in order. `depth` counts from the top level (0).
    mutating func boxes(in span: Range<Int>, depth: Int) throws(MovieHeaderError) -> [Box] {
        guard depth <= MovieBoxes.maximumDepth else { throw .tooDeep(at: span.lowerBound) }
        var out: [Box] = []
        var at = span.lowerBound
        while at < span.upperBound {
            budget -= 1
            guard budget >= 0 else { throw .tooManyBoxes }
            let left = span.upperBound - at
            guard left >= 8 else { throw .trailingData(at: at) }
            let size32 = try u32(at)
            let type = try u32(at + 4)
            var header = 8
            var size: Int
            switch size32 {
            case 0:
                // To the end of the file: only a top-level box may say so.
                guard depth == 0 else { throw .badBoxSize(at: at) }
                size = left
            case 1:
                guard left >= 16 else { throw .badBoxSize(at: at) }
                let large = try u64(at + 8)
                guard large <= UInt64(left) else { throw .badBoxSize(at: at) }
                size = Int(large)
                header = 16
            default:
                size = Int(size32)
            }
            guard size >= header, size <= left else { throw .badBoxSize(at: at) }
            out.append(Box(type: type, start: at, body: (at + header)..<(at + size)))
            at += size
        }
        return out
    }

    /// The one child of type `type`, nil when there is none; two are `duplicateBox`.
    static func single(_ type: UInt32, in boxes: [Box]) throws(MovieHeaderError) -> Box? {
        let found = boxes.filter { $0.type == type }
        guard found.count <= 1 else { throw .duplicateBox(MovieBoxes.name(type)) }
        return found.first
    }

    static func fourCC(_ s: StaticString) -> UInt32 {
        s.withUTF8Buffer { b in b.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
    }

    static func name(_ type: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}
