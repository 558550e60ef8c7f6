/// TIFF (and DNG, its raw-camera profile) and the C2PA manifest store carried by the C2PA tag
/// (C2PA 2.x, A.3.4; c2pa-rs `tiff_io.rs`):
///
///     "II" 42 | "MM" 42 (BigTIFF: 43, 8, 0)   first IFD offset   IFD: count { tag type count value|offset } next
///     C2PA tag 0xCD41 (52545), type UNDEFINED (7), count = store length, offset → the store
///
/// As c2pa-rs reads it: the page chain (IFD0 → next …, at most 2,000 pages, a repeated offset
/// is a `cycle`) with each page's SubIFDs (330; at most 1,000), Exif (34665) and GPS (34853)
/// IFDs read — one that does not hold fails the file, as there; the C2PA tag is taken from the
/// last page's IFD, else from IFD0; a type other than 7 is `badIFD`. The carrier range is the
/// store's bytes. c2pa-rs's writer also excludes the entry's 4-byte (BigTIFF: 8) count field
/// from its data hash, since it changes with the store's size; the validator just applies the
/// exclusions the assertion lists.
public enum TIFFContainer {
    public static let c2paTag: UInt16 = 0xCD41
    public static let xmpTag: UInt16 = 700
    public static let dngVersionTag: UInt16 = 50706
    /// c2pa-rs `MAX_PAGES`, `MAX_SUBFILES`.
    public static let maximumPages = 2000
    public static let maximumSubIFDs = 1000
    /// Entries in one IFD (a classic TIFF's count is a u16; BigTIFF's u64 is held to the same).
    public static let maximumEntries = 65_535
    /// Entries over every page kept (2,000 pages of 65,535 entries would be gigabytes).
    public static let maximumPageEntries = 1 << 20

    public struct Layout: Sendable, Equatable {
        public let littleEndian: Bool
        public let bigTIFF: Bool
        public var offsetSize: Int { bigTIFF ? 8 : 4 }
        public var entrySize: Int { bigTIFF ? 20 : 12 }
    }

    public struct Entry: Sendable, Equatable {
        public let tag: UInt16
        public let type: UInt16
        public let count: UInt64
        /// The raw value/offset field (4 bytes, BigTIFF 8).
        public let valueField: [UInt8]
        /// File offset of the entry.
        public let offset: Int64

        /// The value field read as an offset (where the value lies when it does not fit the field).
        public func offsetValue(in layout: Layout) -> UInt64 { TIFFContainer.value(self, layout) }
    }

    public struct IFD: Sendable, Equatable {
        public let offset: Int64
        public let entries: [Entry]
        public let next: UInt64
        public func entry(_ tag: UInt16) -> Entry? { entries.last { $0.tag == tag } }
    }

    /// The byte order and the page IFDs (sub-IFDs are read for their errors, not returned).
    public static func pages(of source: some ByteSource) throws(ContainerError) -> (layout: Layout, pages: [IFD]) {
        let h = try source.containerPrefix(at: 0, count: 16)
        guard h.count >= 8 else { throw .unsupported }
        let le: Bool
        switch (h[0], h[1]) {
        case (0x49, 0x49): le = true
        case (0x4D, 0x4D): le = false
        default: throw .unsupported
        }
        let magic = u16(h, 2, le)
        let layout: Layout
        let first: UInt64
        switch magic {
        case 42:
            layout = Layout(littleEndian: le, bigTIFF: false)
            first = UInt64(u32(h, 4, le))
        case 43:
            guard h.count == 16, u16(h, 4, le) == 8, u16(h, 6, le) == 0 else { throw .badIFD(offset: 0) }
            layout = Layout(littleEndian: le, bigTIFF: true)
            first = u64(h, 8, le)
        default: throw .unsupported
        }
        var pages: [IFD] = []
        var seen: Set<UInt64> = [first]
        var at = first
        var subIFDs = 0
        var kept = 0
        while true {
            let ifd = try readIFD(source, at: at, layout: layout)
            pages.append(ifd)
            kept += ifd.entries.count
            guard pages.count <= maximumPages, kept <= maximumPageEntries else { throw .tooManyParts(offset: ifd.offset) }
            for tag: UInt16 in [34665, 34853] {
                if let e = ifd.entry(tag) { _ = try readIFD(source, at: value(e, layout), layout: layout) }
            }
            if let e = ifd.entry(330) {
                let offsets = try subIFDOffsets(e, source: source, layout: layout)
                subIFDs += offsets.count
                guard subIFDs <= 16 * maximumSubIFDs else { throw .tooManyParts(offset: e.offset) }
                for o in offsets { _ = try readIFD(source, at: UInt64(o), layout: layout) }
            }
            guard ifd.next != 0 else { break }
            guard seen.insert(ifd.next).inserted else { throw .cycle(offset: ifd.offset) }
            at = ifd.next
        }
        return (layout, pages)
    }

    static func readIFD(_ source: some ByteSource, at offset: UInt64, layout: Layout) throws(ContainerError) -> IFD {
        guard offset <= UInt64(source.count) else { throw .truncated(offset: Int64(clamping: offset)) }
        let at = Int64(offset)
        let countSize = layout.bigTIFF ? 8 : 2
        let c = try source.containerBytes(at: at, count: countSize)
        let n = layout.bigTIFF ? u64(c, 0, layout.littleEndian) : UInt64(u16(c, 0, layout.littleEndian))
        guard n <= UInt64(maximumEntries) else { throw .tooManyParts(offset: at) }
        let bytes = n * UInt64(layout.entrySize)
        guard bytes <= UInt64(source.count) else { throw .truncated(offset: at) }
        let body = try source.containerBytes(at: at + Int64(countSize), count: Int(bytes) + layout.offsetSize)
        var entries: [Entry] = []
        entries.reserveCapacity(Int(n))
        for i in 0..<Int(n) {
            let e = i * layout.entrySize
            let le = layout.littleEndian
            let count = layout.bigTIFF ? u64(body, e + 4, le) : UInt64(u32(body, e + 4, le))
            entries.append(Entry(tag: u16(body, e, le), type: u16(body, e + 2, le), count: count,
                                 valueField: Array(body[(e + layout.entrySize - layout.offsetSize)..<(e + layout.entrySize)]),
                                 offset: at + Int64(countSize + e)))
        }
        let nb = Int(bytes)
        let next = layout.bigTIFF ? u64(body, nb, layout.littleEndian) : UInt64(u32(body, nb, layout.littleEndian))
        return IFD(offset: at, entries: entries, next: next)
    }

    /// SubIFD offsets, read as 32-bit values (as c2pa-rs does, BigTIFF included).
    static func subIFDOffsets(_ e: Entry, source: some ByteSource, layout: Layout) throws(ContainerError) -> [UInt32] {
        guard e.count <= UInt64(maximumSubIFDs) else { throw .tooManyParts(offset: e.offset) }
        let n = e.count * 4
        guard n <= UInt64(source.count) else { throw .badIFD(offset: e.offset) }
        let raw = Int(n) <= layout.offsetSize ? e.valueField : try source.containerBytes(at: Int64(value(e, layout)), count: Int(n))
        return (0..<Int(e.count)).map { u32(raw, $0 * 4, layout.littleEndian) }
    }

    /// The entry's value field read as an offset.
    static func value(_ e: Entry, _ layout: Layout) -> UInt64 {
        layout.bigTIFF ? u64(e.valueField, 0, layout.littleEndian) : UInt64(u32(e.valueField, 0, layout.littleEndian))
    }

    /// The bytes of a BYTE/UNDEFINED entry: inline when they fit the value field, else at its offset.
    static func bytes(_ e: Entry, source: some ByteSource, layout: Layout, limit: Int) throws(ContainerError) -> [UInt8] {
        guard e.count <= UInt64(limit) else { throw .manifestTooLarge }
        if e.count <= UInt64(layout.offsetSize) { return Array(e.valueField.prefix(Int(e.count))) }
        let at = value(e, layout)
        guard at <= UInt64(source.count) else { throw .truncated(offset: e.offset) }
        return try source.containerBytes(at: Int64(at), count: Int(e.count))
    }

    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        let (layout, pages) = try pages(of: source)
        guard let e = pages.last?.entry(c2paTag) ?? pages.first?.entry(c2paTag) else { return .absent(reason: "none") }
        guard e.type == 7 else { throw .badIFD(offset: e.offset) }
        let store = try bytes(e, source: source, layout: layout, limit: ContainerLimits.maximumStoreSize)
        let at = e.count <= UInt64(layout.offsetSize) ? e.offset + Int64(layout.entrySize - layout.offsetSize) : Int64(value(e, layout))
        return .found(ManifestLocation(storeBytes: store, ranges: [at..<(at + Int64(store.count))]))
    }

    /// Whether IFD0 carries a `DNGVersion` tag (the report says `dng` then).
    public static func isDNG(_ source: some ByteSource) throws(ContainerError) -> Bool {
        try pages(of: source).pages.first?.entry(dngVersionTag) != nil
    }

    /// The XMP packet: IFD0's tag 700 when its type is BYTE (c2pa-rs reads no other type).
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        let (layout, pages) = try pages(of: source)
        guard let e = pages.first?.entry(xmpTag), e.type == 1 else { return nil }
        return try bytes(e, source: source, layout: layout, limit: ContainerLimits.maximumXMP)
    }

    static func u16(_ b: [UInt8], _ at: Int, _ le: Bool) -> UInt16 {
        (le ? LittleEndian.u16(b, at) : BigEndian.u16(b, at)) ?? 0
    }

    static func u32(_ b: [UInt8], _ at: Int, _ le: Bool) -> UInt32 {
        (le ? LittleEndian.u32(b, at) : BigEndian.u32(b, at)) ?? 0
    }

    static func u64(_ b: [UInt8], _ at: Int, _ le: Bool) -> UInt64 {
        (le ? LittleEndian.u64(b, at) : BigEndian.u64(b, at)) ?? 0
    }
}
