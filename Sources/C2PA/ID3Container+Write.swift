extension ID3Container {
    /// A v2.4 `GEOB` frame carrying `store` as c2pa-rs writes it (MIME `application/c2pa`, file
    /// name `c2pa`, description `c2pa manifest store`; Latin-1 text), and where the object starts in it.
    public static func geobFrame(for store: [UInt8]) throws(ContainerError) -> (frame: [UInt8], objectOffset: Int) {
        let head: [UInt8] = [0] + Array("application/c2pa".utf8) + [0] + Array("c2pa".utf8) + [0] + Array("c2pa manifest store".utf8) + [0]
        let size = head.count + store.count
        guard size < 1 << 28 else { throw .manifestTooLarge }
        return (Array("GEOB".utf8) + syncsafeBytes(size) + [0, 0] + head + store, 10 + head.count)
    }

    static func syncsafeBytes(_ v: Int) -> [UInt8] { [UInt8(v >> 21 & 0x7F), UInt8(v >> 14 & 0x7F), UInt8(v >> 7 & 0x7F), UInt8(v & 0x7F)] }

    /// `audio` (an MP3 or FLAC holding no store) with an ID3v2.4 tag carrying the GEOB frame in
    /// front: an existing v2.4 tag (no unsynchronisation, no extended header, no footer) keeps its
    /// frames, the GEOB frame goes after them; any other tag is refused. Returns the bytes and the
    /// range of the store (the object) in them — what c2pa-rs excludes.
    public static func embed(_ store: [UInt8], into audio: [UInt8]) throws(ContainerError) -> (bytes: [UInt8], range: Range<Int>) {
        let src = MemoryByteSource(audio)
        var frames: [UInt8] = []
        var rest = audio[...]
        if let t = try header(of: src) {
            guard t.major == 4, t.flags == 0 else { throw .badTag(offset: 0) }
            for f in try self.frames(of: src, header: t) {
                if f.id == "GEOB", let d = f.data, let eo = encapsulatedObject(d), c2paMIMETypes.contains(eo.mime) {
                    throw .tooManyManifestStores
                }
                frames += audio[Int(f.range.lowerBound)..<Int(f.range.upperBound)]
            }
            rest = audio[Int(t.range.upperBound)...]
        }
        let (geob, objectOffset) = try geobFrame(for: store)
        let at = 10 + frames.count
        let body = frames + geob
        let tag = Array("ID3".utf8) + [4, 0, 0] + syncsafeBytes(body.count) + body
        let start = at + objectOffset
        return (tag + Array(rest), start..<(start + store.count))
    }

    /// Replaces the store with one of the same length (placeholder → final).
    public static func replace(_ store: [UInt8], in audio: [UInt8]) throws(ContainerError) -> [UInt8] {
        guard case .found(let loc) = try manifest(in: MemoryByteSource(audio)), let r = loc.span else { throw .noInsertionPoint }
        guard store.count == r.count else { throw .sizeChanged(expected: Int(r.count), actual: store.count) }
        var out = audio
        out.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: store)
        return out
    }
}

extension ID3Container {
    /// `audio` with its ID3v2.4 tag written again without the C2PA GEOB frame (the other frames
    /// kept as they were); a tag left empty is dropped.
    public static func remove(from audio: [UInt8]) throws(ContainerError) -> [UInt8] {
        let src = MemoryByteSource(audio)
        guard let t = try header(of: src), t.major == 4, t.flags == 0 else { throw .noInsertionPoint }
        var frames: [UInt8] = []
        var removed = false
        for f in try self.frames(of: src, header: t) {
            if f.id == "GEOB", let d = f.data, let eo = encapsulatedObject(d), c2paMIMETypes.contains(eo.mime) { removed = true; continue }
            frames += audio[Int(f.range.lowerBound)..<Int(f.range.upperBound)]
        }
        guard removed else { throw .noInsertionPoint }
        let rest = Array(audio[Int(t.range.upperBound)...])
        guard !frames.isEmpty else { return rest }
        return Array("ID3".utf8) + [4, 0, 0] + syncsafeBytes(frames.count) + frames + rest
    }
}
