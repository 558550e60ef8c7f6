extension RIFFContainer {
    /// One chunk with its pad byte when the data length is odd.
    public static func chunk(id: String, data: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard data.count < Int(UInt32.max) - 16 else { throw .manifestTooLarge }
        return Array(id.utf8) + LittleEndian.bytes(UInt32(data.count)) + data + (data.count & 1 == 1 ? [0] : [])
    }

    /// `riff` (holding no store) with a `C2PA` chunk appended as the last child of the `RIFF`
    /// chunk, where c2pa-rs writes it, and the `RIFF` size updated. A `RIFF` chunk that does not
    /// end the file (an AVI with `AVIX` chunks) keeps what follows. Returns the bytes and the
    /// range of the chunk's header and data (the pad byte, when any, follows it).
    public static func embed(_ store: [UInt8], into riff: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(riff)
        if case .found = try manifest(in: src) { throw .tooManyManifestStores }
        _ = try chunks(of: src)
        let size = Int(LittleEndian.u32(riff, 4) ?? 0)
        var at = 8 + size
        if size & 1 == 1 { at += 1 } // an odd RIFF size: its last child lacked the pad byte
        var body = Array(riff[..<min(at, riff.count)])
        while body.count < at { body.append(0) }
        let c = try chunk(id: "C2PA", data: store)
        let newSize = body.count - 8 + c.count
        guard newSize <= Int(UInt32.max) else { throw .manifestTooLarge }
        body.replaceSubrange(4..<8, with: LittleEndian.bytes(UInt32(newSize)))
        return (body + c + Array(riff[min(at, riff.count)...]), at..<(at + 8 + store.count))
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in riff: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(riff)), let r = loc.span else { throw .noInsertionPoint }
        guard store.count + 8 == r.count else { throw .sizeChanged(expected: Int(r.count) - 8, actual: store.count) }
        var out = riff
        out.replaceSubrange(Int(r.lowerBound + 8)..<Int(r.upperBound), with: store)
        return out
    }

    /// `riff` with an `XMP ` chunk appended to the `RIFF` chunk (WebP readers also want the
    /// `VP8X` XMP flag; tests of remote references need only the chunk).
    public static func insertXMP(_ packet: [UInt8], into riff: [UInt8]) throws(ContainerError) -> [UInt8] {
        _ = try chunks(of: MemoryByteSource(riff))
        let size = Int(LittleEndian.u32(riff, 4) ?? 0)
        let at = min(8 + size + (size & 1), riff.count)
        let c = try chunk(id: "XMP ", data: packet)
        var body = Array(riff[..<at])
        body.replaceSubrange(4..<8, with: LittleEndian.bytes(UInt32(body.count - 8 + c.count)))
        return body + c + Array(riff[at...])
    }
}

extension RIFFContainer {
    /// `riff` without its `C2PA` chunk (and its pad byte), the `RIFF` size updated.
    public static func remove(from riff: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(riff)), let r = loc.span else { throw .noInsertionPoint }
        let end = min(riff.count, Int(r.upperBound) + Int(r.count - 8) % 2)
        var out = Array(riff[..<Int(r.lowerBound)]) + Array(riff[end...])
        let size = Int(LittleEndian.u32(riff, 4) ?? 0) - (end - Int(r.lowerBound))
        out.replaceSubrange(4..<8, with: LittleEndian.bytes(UInt32(max(4, size))))
        return out
    }
}
