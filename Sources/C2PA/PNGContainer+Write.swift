extension PNGContainer {
    /// One chunk with its CRC.
    public static func chunk(type: String, data: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard data.count <= 0x7FFF_FFFF else { throw .manifestTooLarge }
        let t = Array(type.utf8)
        return BigEndian.bytes(UInt32(data.count)) + t + data + BigEndian.bytes(CRC32.checksum(t, data))
    }

    /// Bytes the `caBX` chunk of a `storeLength`-byte store takes.
    public static func chunkLength(storeLength: Int) -> Int { 12 + storeLength }

    /// `png` (holding no store) with a `caBX` chunk inserted right after `IHDR`, where c2pa-rs
    /// writes it. Returns the bytes and the chunk's range.
    public static func embed(_ store: [UInt8], into png: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(png)
        if case .found = try manifest(in: src) { throw .tooManyManifestStores }
        guard let ihdr = try chunks(of: src).first(where: { $0.type == "IHDR" }) else { throw .noInsertionPoint }
        let c = try chunk(type: "caBX", data: store)
        let at = Int(ihdr.range.upperBound)
        return (Array(png[..<at]) + c + Array(png[at...]), at..<(at + c.count))
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in png: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(png)), let r = loc.span else { throw .noInsertionPoint }
        let c = try chunk(type: "caBX", data: store)
        guard c.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: c.count) }
        var out = png
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: c)
        return out
    }

    /// `png` with an `iTXt` XMP chunk (`XML:com.adobe.xmp`, uncompressed) after `IHDR`.
    public static func insertXMP(_ packet: [UInt8], into png: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard let ihdr = try chunks(of: MemoryByteSource(png)).first(where: { $0.type == "IHDR" }) else { throw .noInsertionPoint }
        let c = try chunk(type: "iTXt", data: Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + packet)
        let at = Int(ihdr.range.upperBound)
        return Array(png[..<at]) + c + Array(png[at...])
    }
}

extension PNGContainer {
    /// `png` without its `caBX` chunk (c2pa-rs `remove_cai_store`).
    public static func remove(from png: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(png)), let r = loc.span else { throw .noInsertionPoint }
        return Array(png[..<Int(r.lowerBound)]) + Array(png[Int(r.upperBound)...])
    }
}
