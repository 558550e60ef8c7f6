extension TIFFContainer {
    /// `tiff` (holding no store) with the C2PA tag added to its last page's IFD: that IFD is
    /// written again at the end of the file with the entry in tag order (the other entries'
    /// values stay where they were), the pointer to it (the header's, or the previous page's
    /// next-IFD field) moved there, and the store after it. Returns the bytes, the store's range
    /// and the range of the entry's count field — the two spans c2pa-rs excludes from its data
    /// hash (the count changes with the store's size).
    public static func embed(_ store: [UInt8], into tiff: [UInt8]) throws(ContainerError)
        -> (bytes: [UInt8], range: Range<Int>, countField: Range<Int>) {
        let src = MemoryByteSource(tiff)
        if case .found = try manifest(in: src) { throw .tooManyManifestStores }
        let (layout, pages) = try pages(of: src)
        guard let last = pages.last else { throw .noInsertionPoint }
        let le = layout.littleEndian
        func uint(_ v: UInt64, _ n: Int) -> [UInt8] {
            let b = (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
            return le ? b : b.reversed()
        }
        var out = tiff
        if out.count % 2 == 1 { out.append(0) }
        let ifdAt = out.count
        var entries = last.entries.filter { $0.tag != c2paTag }
        let countSize = layout.bigTIFF ? 8 : 2
        let ifdLength = countSize + (entries.count + 1) * layout.entrySize + layout.offsetSize
        let storeAt = ifdAt + ifdLength
        entries.append(Entry(tag: c2paTag, type: 7, count: UInt64(store.count), valueField: uint(UInt64(storeAt), layout.offsetSize), offset: 0))
        entries.sort { $0.tag < $1.tag }
        var ifd = uint(UInt64(entries.count), countSize)
        var countField = 0..<0
        for e in entries {
            if e.tag == c2paTag {
                let at = ifdAt + ifd.count + 4
                countField = at..<(at + layout.offsetSize)
            }
            ifd += uint(UInt64(e.tag), 2) + uint(UInt64(e.type), 2) + uint(e.count, layout.offsetSize) + e.valueField
        }
        ifd += uint(last.next, layout.offsetSize)
        out += ifd + store
        // Point at the new IFD.
        let pointer: Int
        if pages.count == 1 {
            pointer = layout.bigTIFF ? 8 : 4
        } else {
            let prev = pages[pages.count - 2]
            pointer = Int(prev.offset) + countSize + prev.entries.count * layout.entrySize
        }
        out.replaceSubrange(pointer..<(pointer + layout.offsetSize), with: uint(UInt64(ifdAt), layout.offsetSize))
        return (out, storeAt..<(storeAt + store.count), countField)
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in tiff: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(tiff)), let r = loc.span else { throw .noInsertionPoint }
        guard store.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: store.count) }
        var out = tiff
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: store)
        return out
    }
}

extension TIFFContainer {
    /// `tiff` with the C2PA entry taken out of its IFD, in place (the IFD one entry shorter, its
    /// next-IFD offset moved up, the freed bytes zeroed); the store's bytes stay, unreferenced.
    public static func remove(from tiff: [UInt8]) throws(ContainerError) -> [UInt8] {
        let (layout, pages) = try pages(of: MemoryByteSource(tiff))
        guard let ifd = pages.last(where: { $0.entry(c2paTag) != nil }) ?? pages.first(where: { $0.entry(c2paTag) != nil }) else {
            throw .noInsertionPoint
        }
        let le = layout.littleEndian
        let countSize = layout.bigTIFF ? 8 : 2
        let start = Int(ifd.offset)
        let total = countSize + ifd.entries.count * layout.entrySize + layout.offsetSize
        var body = Array(tiff[(start + countSize)..<(start + total)])
        let kept = ifd.entries.enumerated().filter { $0.element.tag != c2paTag }.map(\.offset)
        var entries: [UInt8] = []
        for i in kept { entries += body[(i * layout.entrySize)..<((i + 1) * layout.entrySize)] }
        let next = Array(body[(ifd.entries.count * layout.entrySize)...])
        let n = UInt64(kept.count)
        let count = (0..<countSize).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) }
        body = (le ? count : count.reversed()) + entries + next
        body += [UInt8](repeating: 0, count: total - body.count)
        var out = tiff
        out.replaceSubrange(start..<(start + total), with: body)
        return out
    }
}
