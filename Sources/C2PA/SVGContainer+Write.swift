extension SVGContainer {
    /// `svg` (holding no store) with `<metadata><c2pa:manifest>BASE64</c2pa:manifest></metadata>`
    /// right after the root start tag, and `xmlns:c2pa="http://c2pa.org/manifest"` declared on
    /// it, as c2pa-rs writes them. Returns the bytes and the range of the base64 text.
    public static func embed(_ store: [UInt8], into svg: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(svg)
        if case .found = try manifest(in: src) { throw .tooManyManifestStores }
        var s = MarkupScanner(src)
        var rootEnd: Int?
        while let e = try s.next() {
            if case .start(let name, let selfClosing) = e {
                guard name == "svg", !selfClosing else { throw .noInsertionPoint }
                rootEnd = Int(s.at)
                break
            }
        }
        guard let rootEnd else { throw .noInsertionPoint }
        let ns = Array(" xmlns:c2pa=\"http://c2pa.org/manifest\"".utf8)
        let tag = svg[..<(rootEnd - 1)]
        let declared = contains(Array(tag), Array("xmlns:c2pa".utf8))
        let head = Array(tag) + (declared ? [] : ns) + [UInt8(ascii: ">")]
        let open = Array("<metadata><c2pa:manifest>".utf8)
        let text = Base64.encode(store)
        let at = head.count + open.count
        let bytes = head + open + text + Array("</c2pa:manifest></metadata>".utf8) + Array(svg[rootEnd...])
        return (bytes, at..<(at + text.count))
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in svg: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(svg)), let r = loc.span else { throw .noInsertionPoint }
        let text = Base64.encode(store)
        guard text.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: text.count) }
        var out = svg
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: text)
        return out
    }
}

extension SVGContainer {
    /// `svg` without its `<c2pa:manifest>` element (c2pa-rs's remove skips exactly that element).
    public static func remove(from svg: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(svg)), let r = loc.span else { throw .noInsertionPoint }
        let open = Array("<c2pa:manifest".utf8), close = Array("</c2pa:manifest>".utf8)
        guard let s = stride(from: Int(r.lowerBound) - open.count, through: 0, by: -1)
                .first(where: { svg[$0..<($0 + open.count)].elementsEqual(open) }),
              let e = (Int(r.upperBound)...(svg.count - close.count)).first(where: { svg[$0..<($0 + close.count)].elementsEqual(close) })
        else { throw .noInsertionPoint }
        return Array(svg[..<s]) + Array(svg[(e + close.count)...])
    }
}
