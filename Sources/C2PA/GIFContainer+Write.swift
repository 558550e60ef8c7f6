extension GIFContainer {
    /// The application extension that carries `store` (`C2PA_GIF` 01 00 00, 255-byte sub-blocks).
    public static func extensionBlock(for store: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x21, 0xFF, 0x0B] + c2paID
        var i = 0
        while i < store.count {
            let n = min(255, store.count - i)
            out.append(UInt8(n))
            out += store[i..<(i + n)]
            i += n
        }
        return out + [0]
    }

    /// `gif` (holding no store) with the C2PA extension right after the header, screen
    /// descriptor and global colour table, where c2pa-rs inserts it (a GIF87a becomes GIF89a,
    /// as there). Returns the bytes and the extension's range.
    public static func embed(_ store: [UInt8], into gif: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(gif)
        if case .found = try manifest(in: src) { throw .tooManyManifestStores }
        _ = try applicationBlocks(of: src, untilImage: true)
        var at = 13
        if gif[10] & 0x80 != 0 { at += 3 << (Int(gif[10] & 0x07) + 1) }
        let block = extensionBlock(for: store)
        var out = Array(gif[..<at]) + block + Array(gif[at...])
        out[4] = UInt8(ascii: "9")
        return (out, at..<(at + block.count))
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in gif: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(gif)), let r = loc.span else { throw .noInsertionPoint }
        let block = extensionBlock(for: store)
        guard block.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: block.count) }
        var out = gif
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: block)
        return out
    }
}

extension GIFContainer {
    /// `gif` without its C2PA application extension.
    public static func remove(from gif: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(gif)), let r = loc.span else { throw .noInsertionPoint }
        return Array(gif[..<Int(r.lowerBound)]) + Array(gif[Int(r.upperBound)...])
    }
}
