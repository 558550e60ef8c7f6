import Foundation

/// A test-only MP4 sample-table reader, independent of libavformat: walks `moov/trak`, reads
/// `hdlr`, `mdhd`, `stsz`, `stsc`, `stco`/`co64`, `stts`, and yields each track's samples
/// (file offset, size, end time in seconds) in sample-table order. It trusts well-formed
/// fixtures made by ffmpeg; it is the second path the streamed-chunk tests compare against.
struct SampleTableReader {
    struct Sample { var offset: Int; var size: Int; var endTime: Double }
    struct Track { var handler: String; var samples: [Sample] }

    let bytes: [UInt8]
    var tracks: [Track] = []

    init(path: String) throws {
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let moov = children(0, bytes.count).first(where: { $0.type == "moov" }) else { throw ReadError.noMoov }
        for trak in children(moov.body, moov.end) where trak.type == "trak" {
            tracks.append(try track(trak))
        }
    }

    enum ReadError: Error { case noMoov, missing(String) }

    struct Box { var type: String; var body: Int; var end: Int }

    func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
    func u64(_ o: Int) -> Int { u32(o) << 32 | u32(o + 4) }

    func children(_ start: Int, _ end: Int) -> [Box] {
        var out: [Box] = []
        var o = start
        while o + 8 <= end {
            var size = u32(o)
            let type = String(decoding: bytes[(o + 4)..<(o + 8)], as: UTF8.self)
            var header = 8
            if size == 1 { size = u64(o + 8); header = 16 }
            if size == 0 { size = end - o }
            guard size >= header, o + size <= end else { break }
            out.append(Box(type: type, body: o + header, end: o + size))
            o += size
        }
        return out
    }

    func find(_ path: [String], in box: Box) -> Box? {
        var cur = box
        for name in path {
            guard let next = children(cur.body, cur.end).first(where: { $0.type == name }) else { return nil }
            cur = next
        }
        return cur
    }

    func track(_ trak: Box) throws -> Track {
        guard let mdia = find(["mdia"], in: trak), let hdlr = find(["hdlr"], in: mdia), let mdhd = find(["mdhd"], in: mdia),
              let stbl = find(["minf", "stbl"], in: mdia), let stsz = find(["stsz"], in: stbl),
              let stsc = find(["stsc"], in: stbl), let stts = find(["stts"], in: stbl) else { throw ReadError.missing("stbl") }
        let handler = String(decoding: bytes[(hdlr.body + 8)..<(hdlr.body + 12)], as: UTF8.self)
        let timescale = bytes[mdhd.body] == 1 ? u32(mdhd.body + 20) : u32(mdhd.body + 12)
        // sizes
        let fixed = u32(stsz.body + 4), count = u32(stsz.body + 8)
        let sizes = (0..<count).map { fixed != 0 ? fixed : u32(stsz.body + 12 + 4 * $0) }
        // chunk offsets
        var offsets: [Int] = []
        if let stco = find(["stco"], in: stbl) {
            offsets = (0..<u32(stco.body + 4)).map { u32(stco.body + 8 + 4 * $0) }
        } else if let co64 = find(["co64"], in: stbl) {
            offsets = (0..<u32(co64.body + 4)).map { u64(co64.body + 8 + 8 * $0) }
        } else { throw ReadError.missing("stco") }
        // samples per chunk
        let entries = (0..<u32(stsc.body + 4)).map { (first: u32(stsc.body + 8 + 12 * $0), perChunk: u32(stsc.body + 12 + 12 * $0)) }
        var sampleOffsets: [Int] = []
        var s = 0
        for (c, chunkOffset) in offsets.enumerated() {
            let chunkNumber = c + 1
            let per = entries.last(where: { $0.first <= chunkNumber })?.perChunk ?? 0
            var o = chunkOffset
            for _ in 0..<per where s < count {
                sampleOffsets.append(o)
                o += sizes[s]
                s += 1
            }
        }
        // durations
        var ends: [Double] = []
        var t = 0
        for e in 0..<u32(stts.body + 4) {
            let n = u32(stts.body + 8 + 8 * e), d = u32(stts.body + 12 + 8 * e)
            for _ in 0..<n { t += d; ends.append(Double(t) / Double(timescale)) }
        }
        let samples = (0..<min(count, sampleOffsets.count, ends.count)).map {
            Sample(offset: sampleOffsets[$0], size: sizes[$0], endTime: ends[$0])
        }
        return Track(handler: handler, samples: samples)
    }
}
