import Ground

extension BMFFContainer {
    /// The C2PA `uuid` box for a store (purpose `manifest`, merkle offset 0), as c2pa-rs writes it.
    public static func c2paBox(for store: [UInt8], merkleOffset: UInt64 = 0) throws(ContainerError) -> [UInt8] {
        var body = BMFFBox.c2paUserType + [0, 0, 0, 0] + Array("manifest".utf8) + [0] + BigEndian.bytes(merkleOffset)
        body += store
        let size = body.count + 8
        guard size <= Int(UInt32.max) else { throw .manifestTooLarge }
        return BigEndian.bytes(UInt32(size)) + Array("uuid".utf8) + body
    }

    /// Bytes the C2PA box of a `storeLength`-byte store takes.
    public static func boxLength(storeLength: Int) -> Int { 8 + 16 + 4 + 9 + 8 + storeLength }

    /// `mp4` (holding no store) with the store's box inserted right after `ftyp`, every `stco` /
    /// `co64` chunk offset moved by the inserted length (a 32-bit offset that would overflow is an
    /// error). Returns the bytes and the box's range.
    public static func embed(_ store: [UInt8], into mp4: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(mp4)
        let boxes = try BMFFBox.parse(src)
        guard let ftyp = boxes.first, ftyp.type == "ftyp" else { throw .notBMFF }
        if case .found = try manifest(in: src, boxes: boxes) { throw .tooManyManifestStores }
        let box = try c2paBox(for: store)
        let at = Int(ftyp.range.upperBound)
        var out = mp4
        try shiftChunkOffsets(in: &out, boxes: boxes, by: box.count, after: Int64(at))
        out.insert(contentsOf: box, at: at)
        return (out, at..<(at + box.count))
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in mp4: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(mp4)), let r = loc.span else {
            throw .noInsertionPoint
        }
        let box = try c2paBox(for: store, merkleOffset: loc.merkleOffset ?? 0)
        guard box.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: box.count) }
        var out = mp4
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: box)
        return out
    }

    /// Adds `delta` to every chunk offset (in `stco` and `co64` of every track) that points at or
    /// beyond `after`.
    static func shiftChunkOffsets(in bytes: inout [UInt8], boxes: [BMFFBox], by delta: Int,
                                  after: Int64) throws(ContainerError) {
        let tables = BMFFBox.boxes(at: "/moov/trak/mdia/minf/stbl/stco", in: boxes).map { ($0, 4) }
            + BMFFBox.boxes(at: "/moov/trak/mdia/minf/stbl/co64", in: boxes).map { ($0, 8) }
        for (box, width) in tables {
            let body = Int(box.range.lowerBound) + box.headerLength
            guard let count = BigEndian.u32(bytes, body + 4) else { throw .truncated(offset: Int64(body)) }
            let entries = body + 8
            guard UInt64(count) * UInt64(width) <= UInt64(Int(box.range.upperBound) - entries) else {
                throw .badBoxSize(offset: box.range.lowerBound)
            }
            for i in 0..<Int(count) {
                let p = entries + i * width
                if width == 4 {
                    guard let v = BigEndian.u32(bytes, p) else { throw .truncated(offset: Int64(p)) }
                    guard Int64(v) >= after else { continue }
                    let nv = UInt64(v) + UInt64(delta)
                    guard nv <= UInt64(UInt32.max) else { throw .offsetOverflow(offset: Int64(p)) }
                    bytes.replaceSubrange(p..<(p + 4), with: BigEndian.bytes(UInt32(nv)))
                } else {
                    guard let v = BigEndian.u64(bytes, p) else { throw .truncated(offset: Int64(p)) }
                    guard v >= UInt64(after) else { continue }
                    let (nv, o) = v.addingReportingOverflow(UInt64(delta))
                    guard !o else { throw .offsetOverflow(offset: Int64(p)) }
                    bytes.replaceSubrange(p..<(p + 8), with: BigEndian.bytes(nv))
                }
            }
        }
    }
}
