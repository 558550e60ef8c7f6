import Ground

/// The sample tables of an MP4's tracks (ISO/IEC 14496-12 §8.6–8.7), enough to read each track's
/// elementary-stream bytes: samples in decode order at their `mdat` offsets, with decode times.
///
/// Bounds-checked throughout: every count is checked against the bytes that hold it, box
/// nesting is capped, offsets are checked against the file, and failures are `MP4TableError`.
public struct MP4SampleTables: Sendable {
    public struct Sample: Sendable, Equatable {
        public var offset: Int
        public var size: Int
        /// Decode time and duration in the track's timescale.
        public var dts: UInt64
        public var duration: UInt64
    }

    public struct Track: Sendable {
        public var trackID: UInt32
        /// `vide`, `soun`, …
        public var handler: String
        public var timescale: UInt32
        public var samples: [Sample]
        /// Total elementary-stream bytes.
        public var byteCount: Int { samples.reduce(0) { $0 + $1.size } }
    }

    public let tracks: [Track]

    public init(parsing file: [UInt8]) throws(MP4TableError) {
        let top = try MP4SampleTables.boxes(in: file, 0..<file.count)
        guard let moov = top.first(where: { $0.type == "moov" }) else { throw .missing("moov") }
        var out: [Track] = []
        for trak in try MP4SampleTables.boxes(in: file, moov.payload) where trak.type == "trak" {
            out.append(try MP4SampleTables.track(file, trak))
        }
        tracks = out
    }

    public func track(handler: String) -> Track? { tracks.first { $0.handler == handler } }

    struct Box {
        var type: String
        var payload: Range<Int>
    }

    static func boxes(in b: [UInt8], _ range: Range<Int>) throws(MP4TableError) -> [Box] {
        var out: [Box] = []
        var at = range.lowerBound
        while at < range.upperBound {
            guard range.upperBound - at >= 8 else { throw .truncated("box header at \(at)") }
            var size = Int(u32(b, at))
            let type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard range.upperBound - at >= 16 else { throw .truncated("largesize at \(at)") }
                let large = u64(b, at + 8)
                guard large <= UInt64(Int.max) else { throw .badSize(type, at) }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { throw .badSize(type, at) }
            out.append(Box(type: type, payload: (at + header)..<(at + size)))
            at += size
            guard out.count <= 100_000 else { throw .tooMany("boxes") }
        }
        return out
    }

    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) << 32 | UInt64(u32(b, i + 4)) }

    static func child(_ b: [UInt8], _ parent: Box, _ path: [String]) throws(MP4TableError) -> Box {
        var cur = parent
        for t in path {
            guard let next = try boxes(in: b, cur.payload).first(where: { $0.type == t }) else { throw .missing(t) }
            cur = next
        }
        return cur
    }

    /// A full box's entry table: (entry count, first entry offset), count checked against the payload.
    static func table(_ b: [UInt8], _ box: Box, skip: Int = 0, entrySize: Int) throws(MP4TableError) -> (Int, Int) {
        let start = box.payload.lowerBound + 4 + skip
        guard start + 4 <= box.payload.upperBound else { throw .truncated(box.type) }
        let count = Int(u32(b, start))
        guard count <= (box.payload.upperBound - start - 4) / max(1, entrySize) else { throw .tooMany(box.type) }
        return (count, start + 4)
    }

    static func track(_ b: [UInt8], _ trak: Box) throws(MP4TableError) -> Track {
        let tkhd = try child(b, trak, ["tkhd"])
        guard tkhd.payload.count >= 24 else { throw .truncated("tkhd") }
        let trackID = b[tkhd.payload.lowerBound] == 1 ? u32(b, tkhd.payload.lowerBound + 20) : u32(b, tkhd.payload.lowerBound + 12)
        let mdia = try child(b, trak, ["mdia"])
        let hdlr = try child(b, mdia, ["hdlr"])
        guard hdlr.payload.count >= 12 else { throw .truncated("hdlr") }
        let handler = String(decoding: b[(hdlr.payload.lowerBound + 8)..<(hdlr.payload.lowerBound + 12)], as: UTF8.self)
        let mdhd = try child(b, mdia, ["mdhd"])
        guard mdhd.payload.count >= 24 else { throw .truncated("mdhd") }
        let timescale = b[mdhd.payload.lowerBound] == 1 ? u32(b, mdhd.payload.lowerBound + 20) : u32(b, mdhd.payload.lowerBound + 12)
        guard timescale > 0 else { throw .invalid("mdhd timescale 0") }
        let stbl = try child(b, mdia, ["minf", "stbl"])
        let kids = try boxes(in: b, stbl.payload)
        func find(_ t: String) -> Box? { kids.first { $0.type == t } }

        // Sizes.
        var sizes: [Int] = []
        if let stsz = find("stsz") {
            guard stsz.payload.count >= 12 else { throw .truncated("stsz") }
            let fixed = Int(u32(b, stsz.payload.lowerBound + 4))
            let (count, first) = try table(b, stsz, skip: 4, entrySize: fixed == 0 ? 4 : 0)
            guard count <= 50_000_000 else { throw .tooMany("stsz") }
            sizes = fixed != 0 ? Array(repeating: fixed, count: count) : (0..<count).map { Int(u32(b, first + $0 * 4)) }
        } else if let stz2 = find("stz2") {
            guard stz2.payload.count >= 12 else { throw .truncated("stz2") }
            let field = Int(b[stz2.payload.lowerBound + 7])
            guard [4, 8, 16].contains(field) else { throw .invalid("stz2 field size \(field)") }
            let count = Int(u32(b, stz2.payload.lowerBound + 8))
            let first = stz2.payload.lowerBound + 12
            guard count <= (stz2.payload.upperBound - first) * 8 / field else { throw .tooMany("stz2") }
            sizes = (0..<count).map { i in
                switch field {
                case 4: let v = b[first + i / 2]; return Int(i % 2 == 0 ? v >> 4 : v & 0x0F)
                case 8: return Int(b[first + i])
                default: return Int(b[first + 2 * i]) << 8 | Int(b[first + 2 * i + 1])
                }
            }
        } else { throw .missing("stsz") }

        // Chunk offsets.
        var chunkOffsets: [Int] = []
        if let stco = find("stco") {
            let (count, first) = try table(b, stco, entrySize: 4)
            chunkOffsets = (0..<count).map { Int(u32(b, first + $0 * 4)) }
        } else if let co64 = find("co64") {
            let (count, first) = try table(b, co64, entrySize: 8)
            for k in 0..<count {
                let v = u64(b, first + k * 8)
                guard v <= UInt64(Int.max) else { throw .invalid("co64 offset") }
                chunkOffsets.append(Int(v))
            }
        } else { throw .missing("stco") }

        // Sample-to-chunk.
        guard let stsc = find("stsc") else { throw .missing("stsc") }
        let (runs, stscFirst) = try table(b, stsc, entrySize: 12)
        var samplesPerChunk: [Int] = Array(repeating: 0, count: chunkOffsets.count)
        for r in 0..<runs {
            let e = stscFirst + r * 12
            let firstChunk = Int(u32(b, e)), per = Int(u32(b, e + 4))
            let nextFirst = r + 1 < runs ? Int(u32(b, e + 12)) : chunkOffsets.count + 1
            guard firstChunk >= 1, nextFirst >= firstChunk, per <= 10_000_000 else { throw .invalid("stsc run \(r)") }
            for c in firstChunk..<min(nextFirst, chunkOffsets.count + 1) { samplesPerChunk[c - 1] = per }
        }

        // Decode times.
        guard let stts = find("stts") else { throw .missing("stts") }
        let (ttsRuns, ttsFirst) = try table(b, stts, entrySize: 8)
        var durations: [UInt64] = []
        durations.reserveCapacity(sizes.count)
        for r in 0..<ttsRuns {
            let count = Int(u32(b, ttsFirst + r * 8)), delta = UInt64(u32(b, ttsFirst + r * 8 + 4))
            guard durations.count + count <= sizes.count else { throw .invalid("stts covers more samples than stsz") }
            durations += Array(repeating: delta, count: count)
        }
        guard durations.count == sizes.count else { throw .invalid("stts covers \(durations.count) of \(sizes.count) samples") }

        var samples: [Sample] = []
        samples.reserveCapacity(sizes.count)
        var dts: UInt64 = 0
        var s = 0
        for (c, base) in chunkOffsets.enumerated() {
            var at = base
            for _ in 0..<samplesPerChunk[c] {
                guard s < sizes.count else { throw .invalid("stsc maps more samples than stsz") }
                guard at >= 0, sizes[s] <= b.count, at <= b.count - sizes[s] else { throw .outOfFile(s) }
                samples.append(Sample(offset: at, size: sizes[s], dts: dts, duration: durations[s]))
                dts += durations[s]
                at += sizes[s]
                s += 1
            }
        }
        guard s == sizes.count else { throw .invalid("stsc maps \(s) of \(sizes.count) samples") }
        return Track(trackID: trackID, handler: handler, timescale: timescale, samples: samples)
    }
}

/// Why an MP4's sample tables could not be read.
public enum MP4TableError: Error, Equatable, Sendable {
    case missing(String)
    case truncated(String)
    case badSize(String, Int)
    case tooMany(String)
    case invalid(String)
    case outOfFile(Int)

    public var code: String {
        switch self {
        case .missing: StatusCode.mp4MissingBox
        case .truncated: StatusCode.mp4Truncated
        case .badSize: StatusCode.mp4BadBoxSize
        case .tooMany: StatusCode.mp4TooManyEntries
        case .invalid: StatusCode.mp4InvalidTable
        case .outOfFile: StatusCode.mp4SampleOutOfFile
        }
    }
}
