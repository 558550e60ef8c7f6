import Ground

/// JPEG marker segments and the C2PA manifest store carried in APP11 (ISO 19566-5 / JPEG XT box
/// packets):
///
///     FF EB  Lp(u16)  CI='JP'(2)  En(u16)  Z(u32)  LBox TBox payload-part
///
/// The first packet (Z = 1) carries the superbox from its LBox on; each later packet repeats the
/// superbox's LBox/TBox (8 bytes) before its part, and those 8 bytes are dropped on reassembly.
/// Packets of one box share En; Z counts 1, 2, 3 … without gaps or repeats. c2pa-rs finds the store
/// by the `c2pa` type 4CC at contents offset 24.
public enum JPEGContainer {
    /// One marker segment before the scan data.
    public struct Segment: Sendable, Equatable {
        public let marker: UInt8
        /// The whole segment, marker included.
        public let range: Range<Int64>
        /// The contents after the 2-byte length field.
        public let contentRange: Range<Int64>
    }

    /// Segments from SOI up to and including SOS (entropy-coded data is not walked: every
    /// metadata segment precedes it). Bounds checked; a length running past the file is an error.
    ///
    /// With `throughScanData`, the walk goes on through each scan's entropy-coded data (a 0xFF
    /// followed by 0x00 is a stuffed byte, by 0xD0–0xD7 a restart marker) to the next marker,
    /// and on to EOI, reading the whole file once: every segment of a progressive or multi-scan
    /// file, as c2pa-rs's parser sees them. The returned SOS segments cover only their headers.
    public static func segments(of source: some ByteSource, throughScanData: Bool = false) throws(ContainerError) -> [Segment] {
        let n = source.count
        guard n >= 4, let soi = try? source.readExactly(at: 0, count: 2), soi == [0xFF, 0xD8] else {
            throw .notJPEG
        }
        var out: [Segment] = []
        var at: Int64 = 2
        while true {
            // Marker and length in one read (fewer than 4 bytes only at the very end).
            guard let m = try? source.read(at: at, count: 4), m.count >= 2 else { throw .truncated(offset: at) }
            guard m[0] == 0xFF else { throw .badSegmentLength(offset: at) }
            if m[1] == 0xFF { at += 1; continue } // fill byte
            let marker = m[1]
            if marker == 0xD9 { // EOI before any scan
                out.append(Segment(marker: marker, range: at..<(at + 2), contentRange: (at + 2)..<(at + 2)))
                return out
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                out.append(Segment(marker: marker, range: at..<(at + 2), contentRange: (at + 2)..<(at + 2)))
                at += 2
                continue
            }
            guard m.count >= 4 else { throw .truncated(offset: at) }
            let len = Int64(UInt16(m[2]) << 8 | UInt16(m[3]))
            guard len >= 2, at + 2 + len <= n else { throw .badSegmentLength(offset: at) }
            let seg = Segment(marker: marker, range: at..<(at + 2 + len), contentRange: (at + 4)..<(at + 2 + len))
            out.append(seg)
            at = seg.range.upperBound
            if marker == 0xDA { // SOS: entropy-coded data follows
                guard throughScanData else { return out }
                at = try endOfScanData(source, from: at)
                continue
            }
            guard out.count < 65_536 else { throw .badSegmentLength(offset: at) }
        }
    }

    /// The offset of the first marker after entropy-coded data starting at `from`.
    static func endOfScanData(_ source: some ByteSource, from: Int64) throws(ContainerError) -> Int64 {
        var at = from
        var pendingFF = false
        let n = source.count
        while at < n {
            let chunk: [UInt8]
            do { chunk = try source.read(at: at, count: 1 << 16) } catch { throw .io(error) }
            for (i, b) in chunk.enumerated() {
                if pendingFF {
                    pendingFF = false
                    if b == 0x00 || (0xD0...0xD7).contains(b) { continue }
                    if b == 0xFF { pendingFF = true; continue }
                    return at + Int64(i) - 1
                }
                if b == 0xFF { pendingFF = true }
            }
            at += Int64(chunk.count)
        }
        throw .truncated(offset: n)
    }

    /// Finds and reassembles the C2PA manifest store. A gap, a repeat or an out-of-order packet
    /// makes the store absent (never guessed at); two stores are an error, as in c2pa-rs.
    public static func manifest(in source: some ByteSource) throws(ContainerError) -> ManifestLookup {
        let segs = try segments(of: source)
        var store: [UInt8] = []
        var ranges: [Range<Int64>] = []
        var en: [UInt8]?
        var expectedZ: UInt32 = 0
        var broken: String?
        for s in segs where s.marker == 0xEB && s.contentRange.count > 16 {
            let c: [UInt8]
            do { c = try source.readExactly(at: s.contentRange.lowerBound, count: s.contentRange.count) }
            catch { throw .io(error) }
            guard c[0] == 0x4A, c[1] == 0x50 else { continue } // CI 'JP'
            let thisEn = Array(c[2..<4])
            let z = BigEndian.u32(c, 4) ?? 0
            if let en, thisEn == en {
                guard broken == nil else { continue }
                if z == expectedZ {
                    store += c[16...]
                    ranges.append(s.range)
                    expectedZ += 1
                } else {
                    broken = z < expectedZ ? "duplicateSegment" : "sequenceGap"
                }
                continue
            }
            guard c.count > 28, Array(c[24..<28]) == Array("c2pa".utf8) else { continue }
            if en != nil { throw .tooManyManifestStores }
            guard z == 1 else { broken = "sequenceGap"; en = thisEn; continue }
            en = thisEn
            store += c[8...]
            ranges.append(s.range)
            expectedZ = 2
        }
        if let broken { return .absent(reason: broken) }
        guard en != nil else { return .absent(reason: "none") }
        // The superbox's LBox must equal the reassembled length.
        if let lbox = BigEndian.u32(store, 0), lbox != 1, Int(lbox) != store.count {
            return .absent(reason: "lengthMismatch")
        }
        if !ranges.isEmpty, zip(ranges, ranges.dropFirst()).contains(where: { $0.upperBound != $1.lowerBound }) {
            return .absent(reason: "nonContiguous")
        }
        return .found(ManifestLocation(storeBytes: store, ranges: ranges))
    }
}
