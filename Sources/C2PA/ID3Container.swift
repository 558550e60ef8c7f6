/// An ID3v2 tag at the start of an MP3 (or in front of a FLAC stream, as c2pa-rs writes it) and
/// the C2PA manifest store carried in a `GEOB` frame (C2PA 2.x, A.3.9; c2pa-rs `mp3_io.rs`,
/// `flac_io.rs`, `id3_helper.rs`):
///
///     "ID3" major(2…4) minor flags size(28-bit syncsafe)  [extended header]  frames…  [padding]
///     v2.3/v2.4 frame: id(4) size(4; v2.4 syncsafe) flags(2) data   v2.2: id(3) size(3) data
///     GEOB data: encoding(1) MIME(Latin-1, NUL) filename(NUL) description(NUL) object
///
/// The store is the object of the one GEOB frame whose MIME type is `application/c2pa` (or the
/// older `application/x-c2pa-manifest-store`). Unsynchronisation (the tag's flag in v2.3, the
/// tag's or a frame's in v2.4) is undone; a compressed or encrypted frame is not read (no zlib
/// here; c2pa-rs's `id3` crate inflates one — c2pa-rs never writes one). The tag is read into
/// memory (an ID3v2 tag is at most 256 MiB by its 28-bit size). The carrier range is the object's
/// bytes — the span c2pa-rs excludes from its data hash; the GEOB frame's header and the tag
/// header are hashed — or the frame (the tag) when unsynchronisation moved them.
public enum ID3Container {
    static let c2paMIMETypes = ["application/c2pa", "application/x-c2pa-manifest-store"]

    /// The tag header: version, flags, and the file range of the whole tag (footer included).
    public struct TagHeader: Sendable, Equatable {
        public let major: UInt8
        public let flags: UInt8
        public let size: Int
        public var range: Range<Int64> { 0..<(10 + Int64(size) + (major == 4 && flags & 0x10 != 0 ? 10 : 0)) }
    }

    public struct Frame: Sendable, Equatable {
        public let id: String
        /// The frame's data as stored after unsynchronisation is undone (nil: compressed or encrypted).
        public let data: [UInt8]?
        /// File range of the frame (header and data), or of the tag when the tag is unsynchronised as a whole.
        public let range: Range<Int64>
        /// Whether `data` is the frame's bytes as they lie in the file (no flag undone).
        public let dataIsRaw: Bool
    }

    /// The tag header, nil when the file does not start with `ID3`.
    public static func header(of source: some ByteSource) throws(ContainerError) -> TagHeader? {
        let h = try source.containerPrefix(at: 0, count: 10)
        guard h.count == 10, h.starts(with: Array("ID3".utf8)) else { return nil }
        guard (2...4).contains(h[3]), h[4] != 0xFF else { throw .badTag(offset: 3) }
        let size = h[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        return TagHeader(major: h[3], flags: h[5], size: size)
    }

    /// Every frame of the tag, in order, up to the padding.
    public static func frames(of source: some ByteSource, header t: TagHeader) throws(ContainerError) -> [Frame] {
        guard 10 + Int64(t.size) <= source.count else { throw .truncated(offset: 0) }
        var body = try source.containerBytes(at: 10, count: t.size)
        let wholeTagUnsync = t.flags & 0x80 != 0
        if wholeTagUnsync && t.major < 4 { body = resync(body) }
        var at = 0
        if t.flags & 0x40 != 0 { // extended header
            guard let raw = BigEndian.u32(body, 0) else { throw .badTag(offset: 10) }
            let n = t.major == 4 ? Int(syncsafe(raw)) : Int(raw) + 4
            guard t.major > 2, n >= 4, n <= body.count else { throw .badTag(offset: 10) }
            at = n
        }
        let headerLength = t.major == 2 ? 6 : 10
        var out: [Frame] = []
        while at + headerLength <= body.count, body[at] != 0 {
            let idLength = t.major == 2 ? 3 : 4
            guard body[at..<(at + idLength)].allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
                throw .badTag(offset: 10 + Int64(at))
            }
            let id = String(decoding: body[at..<(at + idLength)], as: UTF8.self)
            let size: Int
            var flags: UInt8 = 0
            switch t.major {
            case 2: size = Int(body[at + 3]) << 16 | Int(body[at + 4]) << 8 | Int(body[at + 5])
            case 3: size = Int(BigEndian.u32(body, at + 4) ?? 0); flags = body[at + 9]
            default: size = Int(syncsafe(BigEndian.u32(body, at + 4) ?? 0)); flags = body[at + 9]
            }
            let start = at + headerLength
            guard size <= body.count - start else { throw .badTag(offset: 10 + Int64(at)) }
            let raw = Array(body[start..<(start + size)])
            let data = try frameData(raw, flags: flags, major: t.major, tagUnsync: wholeTagUnsync, offset: 10 + Int64(at))
            let range: Range<Int64> = wholeTagUnsync && t.major < 4 ? t.range : (10 + Int64(at))..<(10 + Int64(start + size))
            out.append(Frame(id: id, data: data, range: range, dataIsRaw: data == raw && !(wholeTagUnsync && t.major < 4)))
            at = start + size
        }
        return out
    }

    /// A frame's data with its format flags applied; nil when compressed or encrypted.
    static func frameData(_ d: [UInt8], flags: UInt8, major: UInt8, tagUnsync: Bool, offset: Int64) throws(ContainerError) -> [UInt8]? {
        var d = d
        if major == 3 {
            if flags & 0xC0 != 0 { return nil } // compression, encryption
            if flags & 0x20 != 0 { guard !d.isEmpty else { throw .badTag(offset: offset) }; d.removeFirst() } // group id
            return d
        }
        if major == 4 {
            if flags & 0x0C != 0 { return nil }
            var skip = flags & 0x40 != 0 ? 1 : 0 // group id
            if flags & 0x01 != 0 { skip += 4 } // data length indicator
            guard skip <= d.count else { throw .badTag(offset: offset) }
            d.removeFirst(skip)
            if flags & 0x02 != 0 || tagUnsync { d = resync(d) }
        }
        return d
    }

    /// Undoes unsynchronisation: every `FF 00` becomes `FF`.
    static func resync(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            out.append(b[i])
            if b[i] == 0xFF, i + 1 < b.count, b[i + 1] == 0 { i += 1 }
            i += 1
        }
        return out
    }

    static func syncsafe(_ v: UInt32) -> UInt32 {
        (v & 0x7F) | (v >> 8 & 0x7F) << 7 | (v >> 16 & 0x7F) << 14 | (v >> 24 & 0x7F) << 21
    }

    /// A GEOB frame's MIME type and object, nil when it does not parse.
    static func encapsulatedObject(_ d: [UInt8]) -> (mime: String, object: [UInt8])? {
        guard let enc = d.first, enc <= 3, let m = d[1...].firstIndex(of: 0) else { return nil }
        let mime = String(decoding: d[1..<m], as: UTF8.self)
        let wide = enc == 1 || enc == 2
        func end(from i: Int) -> Int? { // index after the terminator of a text in this encoding
            var j = i
            if wide {
                while j + 1 < d.count { if d[j] == 0 && d[j + 1] == 0 { return j + 2 }; j += 2 }
                return nil
            }
            return d[i...].firstIndex(of: 0).map { $0 + 1 }
        }
        guard let f = end(from: m + 1), let desc = end(from: f) else { return nil }
        return (mime, Array(d[desc...]))
    }

    /// The store of an MP3 (`flac`: a FLAC stream, where the tag must be followed by `fLaC`).
    /// A tag that does not parse gives absence, as in c2pa-rs (its `id3` reader's error is read
    /// as "no JUMBF"), with the reason named.
    public static func manifest(in source: some ByteSource, flac: Bool = false) throws(ContainerError) -> ManifestLookup {
        let t: TagHeader?
        do { t = try header(of: source) } catch {
            if flac { throw error }
            return .absent(reason: error.code)
        }
        if flac {
            let at = t.map { $0.range.upperBound } ?? 0
            guard try source.containerPrefix(at: at, count: 4) == Array("fLaC".utf8) else { throw .notFLAC(offset: at) }
        }
        guard let t else { return .absent(reason: "none") }
        let frames: [Frame]
        do { frames = try self.frames(of: source, header: t) } catch {
            if case .io = error { throw error }
            return .absent(reason: error.code)
        }
        var found: (ManifestLocation)?
        for f in frames where f.id == "GEOB" || f.id == "GEO" {
            guard let d = f.data, let eo = encapsulatedObject(d), c2paMIMETypes.contains(eo.mime) else { continue }
            if found != nil { throw .tooManyManifestStores }
            guard eo.object.count <= ContainerLimits.maximumStoreSize else { throw .manifestTooLarge }
            // The object's own bytes when they lie as read (c2pa-rs's `HashObjectPositions`), else the frame.
            let range = f.dataIsRaw ? (f.range.upperBound - Int64(eo.object.count))..<f.range.upperBound : f.range
            found = ManifestLocation(storeBytes: eo.object, ranges: [range])
        }
        guard let found else { return .absent(reason: "none") }
        return .found(found)
    }

    /// The XMP packet: the data of the `PRIV` frame owned by `XMP` (c2pa-rs `read_xmp_from_id3`).
    public static func xmpPacket(in source: some ByteSource) throws(ContainerError) -> [UInt8]? {
        guard let t = try header(of: source) else { return nil }
        for f in try frames(of: source, header: t) where f.id == "PRIV" {
            guard let d = f.data, let o = d.firstIndex(of: 0), Array(d[..<o]) == Array("XMP".utf8) else { continue }
            return Array(d[(o + 1)...])
        }
        return nil
    }
}
