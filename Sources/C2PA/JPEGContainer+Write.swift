import Ground

extension JPEGContainer {
    /// Largest part of the store carried by one APP11 segment: 65535 − Lp(2) − CI/En/Z(8) − the
    /// repeated LBox/TBox (8) of a continuation packet. The first packet uses the same size so a
    /// store's segment count depends only on its length.
    public static let maximumPartSize = 65_535 - 2 - 8 - 8

    /// The APP11 segments that carry `store` (`En` = 1, Z from 1).
    public static func app11Segments(for store: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard store.count >= 8, store.count < Int(UInt32.max) else { throw .manifestTooLarge }
        let header = Array(store[0..<8])
        var out: [UInt8] = []
        var z: UInt32 = 1
        var at = 0
        while at < store.count {
            var content: [UInt8] = [0x4A, 0x50, 0x00, 0x01] + BigEndian.bytes(z)
            if z == 1 {
                let n = min(maximumPartSize + 8, store.count)
                content += store[0..<n]
                at = n
            } else {
                let n = min(maximumPartSize, store.count - at)
                content += header + store[at..<(at + n)]
                at += n
            }
            out += [0xFF, 0xEB] + BigEndian.bytes(UInt16(content.count + 2)) + content
            z += 1
        }
        return out
    }

    /// Where a store goes: after SOI and any leading APP0 (JFIF) and APP1 (Exif, XMP) segments,
    /// before the first other segment, as c2pa-rs places it.
    public static func insertionOffset(in jpeg: [UInt8]) throws(ContainerError) -> Int {
        let segs = try segments(of: MemoryByteSource(jpeg))
        var at: Int64 = 2
        for s in segs {
            guard s.marker == 0xE0 || s.marker == 0xE1 else { break }
            at = s.range.upperBound
        }
        return Int(at)
    }

    /// The file range the APP11 segments of a `storeLength`-byte store will occupy once inserted
    /// into `jpeg` (which holds no store): the exclusion of its `c2pa.hash.data` assertion.
    public static func plannedRange(storeLength: Int, in jpeg: [UInt8]) throws(ContainerError) -> Range<Int> {
        let start = try insertionOffset(in: jpeg)
        return start..<(start + segmentsLength(storeLength: storeLength))
    }

    /// Bytes taken by the APP11 segments of a store of this length.
    public static func segmentsLength(storeLength: Int) -> Int {
        guard storeLength > 8 else { return 0 }
        let first = min(maximumPartSize + 8, storeLength)
        let rest = storeLength - first
        let parts = (rest + maximumPartSize - 1) / maximumPartSize
        return (2 + 2 + 8 + first) + parts * (2 + 2 + 8 + 8) + rest
    }

    /// `jpeg` (holding no store) with `store` inserted; returns the bytes and the segments' range.
    public static func embed(_ store: [UInt8], into jpeg: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        if case .found = try manifest(in: MemoryByteSource(jpeg)) { throw .tooManyManifestStores }
        let at = try insertionOffset(in: jpeg)
        let segs = try app11Segments(for: store)
        var out = [UInt8]()
        out.reserveCapacity(jpeg.count + segs.count)
        out += jpeg[0..<at]
        out += segs
        out += jpeg[at...]
        return (out, at..<(at + segs.count))
    }

    /// Replaces the store in `jpeg` with one of exactly the same length (placeholder → final),
    /// or with `resizing`, of any length (the segments after it move: an update manifest).
    public static func replace(_ store: [UInt8], in jpeg: [UInt8], resizing: Bool = false) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(jpeg)), let span = loc.span else {
            throw .noInsertionPoint
        }
        guard resizing || loc.storeBytes.count == store.count else {
            throw .sizeChanged(expected: loc.storeBytes.count, actual: store.count)
        }
        let segs = try app11Segments(for: store)
        guard resizing || segs.count == span.count else { throw .sizeChanged(expected: span.count, actual: segs.count) }
        var out = jpeg
        out.replaceSubrange(Int(span.lowerBound)..<Int(span.upperBound), with: segs)
        return out
    }
}

extension JPEGContainer {
    /// `jpeg` with an APP1 XMP segment (`http://ns.adobe.com/xap/1.0/` NUL packet) inserted after
    /// SOI and any APP0, where c2pa-rs writes one.
    public static func insertXMP(_ packet: [UInt8], into jpeg: [UInt8]) throws(ContainerError) -> [UInt8] {
        let content = XMPProvenance.jpegNamespace + [0] + packet
        guard content.count + 2 <= 65_535 else { throw .manifestTooLarge }
        var at: Int64 = 2
        for s in try segments(of: MemoryByteSource(jpeg)) {
            guard s.marker == 0xE0 else { break }
            at = s.range.upperBound
        }
        let segment = [0xFF, 0xE1] + BigEndian.bytes(UInt16(content.count + 2)) + content
        return Array(jpeg[0..<Int(at)]) + segment + Array(jpeg[Int(at)...])
    }
}
