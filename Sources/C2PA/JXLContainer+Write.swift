extension JXLContainer {
    /// A JPEG XL container around a naked codestream: signature, `ftyp` (`jxl `), `jxlc`.
    public static func wrap(codestream: [UInt8]) -> [UInt8] {
        let ftyp = Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8)
        return signature + box("ftyp", ftyp) + box("jxlc", codestream)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        BigEndian.bytes(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// `jxl` (holding no store) with the store — itself a `jumb` box — inserted after `ftyp` and
    /// before the first codestream box, where c2pa-rs puts it. Returns the bytes and its range.
    public static func embed(_ store: [UInt8], into jxl: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(jxl)
        if case .found = try manifest(in: src) { throw .tooManyManifestStores }
        let bs = try boxes(of: src)
        guard store.count >= 8, BigEndian.u32(store, 0) == UInt32(store.count), Array(store[4..<8]) == Array("jumb".utf8) else {
            throw .badChunk(offset: 0)
        }
        var at = 12
        for (i, b) in bs.enumerated() {
            if b.type == "jxlc" || b.type == "jxlp" { at = Int(b.range.lowerBound); break }
            if b.type == "ftyp" { at = Int(i + 1 < bs.count ? bs[i + 1].range.lowerBound : b.range.upperBound); break }
        }
        return (Array(jxl[..<at]) + store + Array(jxl[at...]), at..<(at + store.count))
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in jxl: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(jxl)), let r = loc.span else { throw .noInsertionPoint }
        guard store.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: store.count) }
        var out = jxl
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: store)
        return out
    }
}

extension JXLContainer {
    /// `jxl` without its C2PA `jumb` box.
    public static func remove(from jxl: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(jxl)), let r = loc.span else { throw .noInsertionPoint }
        return Array(jxl[..<Int(r.lowerBound)]) + Array(jxl[Int(r.upperBound)...])
    }
}
