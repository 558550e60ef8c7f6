/// The sample tables of an ISO BMFF file's tracks (ISO/IEC 14496-12 §8.7): where each sample of
/// each track lies, grouped by chunk — what a track-chunk Merkle tree hashes (c2pa-rs
/// `BmffSampleReader`). Read from `moov/trak`: the track ID (`tkhd`), `stsc` (first chunk,
/// samples per chunk), `stsz` (sample sizes) and `stco`/`co64` (chunk offsets). Bounded: every
/// table is read from its box (a count past the box is `badBoxSize`); `stz2` is not read.
public struct BMFFSampleTables: Sendable {
    public struct Track: Sendable, Equatable {
        public let id: UInt32
        public let chunkOffsets: [UInt64]
        /// `stsc` runs: the first chunk (1-based) and the samples in each chunk of the run.
        public let runs: [(firstChunk: UInt32, samplesPerChunk: UInt32)]
        public let sampleSizes: [UInt32]

        public static func == (a: Track, b: Track) -> Bool {
            a.id == b.id && a.chunkOffsets == b.chunkOffsets && a.sampleSizes == b.sampleSizes
                && a.runs.map(\.firstChunk) == b.runs.map(\.firstChunk) && a.runs.map(\.samplesPerChunk) == b.runs.map(\.samplesPerChunk)
        }

        /// Calls `visit` with (chunk number, 1-based; the sample's file range) for every sample in
        /// order; a sample whose chunk has no offset is `nil` (the tables do not place it).
        public func forEachSample(_ visit: (UInt32, Range<UInt64>?) throws(HashAssertionError) -> Void) throws(HashAssertionError) {
            var sample = 0
            for (i, run) in runs.enumerated() {
                guard run.samplesPerChunk > 0 else { throw .badField("stsc samples per chunk") }
                let nextFirst = i + 1 < runs.count ? runs[i + 1].firstChunk : UInt32.max
                var chunk = run.firstChunk
                while chunk < nextFirst && sample < sampleSizes.count {
                    var at: UInt64? = Int(chunk) - 1 < chunkOffsets.count && chunk > 0 ? chunkOffsets[Int(chunk) - 1] : nil
                    for _ in 0..<run.samplesPerChunk where sample < sampleSizes.count {
                        let size = UInt64(sampleSizes[sample])
                        if let a = at {
                            let (end, o) = a.addingReportingOverflow(size)
                            try visit(chunk, o ? nil : a..<end)
                            at = o ? nil : end
                        } else {
                            try visit(chunk, nil)
                        }
                        sample += 1
                    }
                    chunk += 1
                }
            }
        }
    }

    public let tracks: [UInt32: Track]

    public init(source: some ByteSource, tree: [BMFFBox]) throws(HashAssertionError) {
        var tracks: [UInt32: Track] = [:]
        for trak in BMFFBox.boxes(at: "/moov/trak", in: tree) {
            guard let tkhd = BMFFBox.boxes(at: trak.path + "/tkhd", in: trak.children).first,
                  let stbl = BMFFBox.boxes(at: trak.path + "/mdia/minf/stbl", in: trak.children).first else { continue }
            let head = try Self.body(tkhd, source, max: 1024)
            guard head.count >= 24 else { throw .container(.badBoxSize(offset: tkhd.range.lowerBound)) }
            let idAt = head[0] == 1 ? 20 : 12
            let id = BigEndian.u32(head, idAt) ?? 0
            func table(_ type: String) throws(HashAssertionError) -> [UInt8]? {
                guard let b = BMFFBox.boxes(at: stbl.path + "/" + type, in: stbl.children).first else { return nil }
                return try Self.body(b, source, max: 64 << 20)
            }
            guard let stsc = try table("stsc"), let stsz = try table("stsz") else { continue }
            let offsets: [UInt64]
            if let co = try table("stco") {
                offsets = try Self.entries(co, width: 4, at: stbl.range.lowerBound)
            } else if let co = try table("co64") {
                offsets = try Self.entries(co, width: 8, at: stbl.range.lowerBound)
            } else { continue }
            let flat = try Self.entries(stsc, width: 12, at: stbl.range.lowerBound, words: 3)
            var runs: [(firstChunk: UInt32, samplesPerChunk: UInt32)] = []
            for i in stride(from: 0, to: flat.count, by: 3) { runs.append((UInt32(flat[i]), UInt32(flat[i + 1]))) }
            guard stsz.count >= 12, let fixed = BigEndian.u32(stsz, 4), let count = BigEndian.u32(stsz, 8) else {
                throw .container(.badBoxSize(offset: stbl.range.lowerBound))
            }
            let sizes: [UInt32]
            if fixed != 0 {
                guard count <= 1 << 26 else { throw .container(.tooManyParts(offset: stbl.range.lowerBound)) }
                sizes = [UInt32](repeating: fixed, count: Int(count))
            } else {
                guard UInt64(count) * 4 <= UInt64(stsz.count - 12) else { throw .container(.badBoxSize(offset: stbl.range.lowerBound)) }
                sizes = (0..<Int(count)).map { BigEndian.u32(stsz, 12 + 4 * $0) ?? 0 }
            }
            tracks[id] = Track(id: id, chunkOffsets: offsets, runs: runs, sampleSizes: sizes)
        }
        self.tracks = tracks
    }

    static func body(_ b: BMFFBox, _ source: some ByteSource, max: Int) throws(HashAssertionError) -> [UInt8] {
        let r = b.bodyRange
        guard r.count <= Int64(max) else { throw .container(.tooManyParts(offset: b.range.lowerBound)) }
        do { return try source.readExactly(at: r.lowerBound, count: Int(r.count)) } catch { throw .io(error) }
    }

    /// A FullBox table: version/flags, entry count, then `count` entries of `words` values of
    /// `width / words` bytes each.
    static func entries(_ body: [UInt8], width: Int, at offset: Int64, words: Int = 1) throws(HashAssertionError) -> [UInt64] {
        guard body.count >= 8, let count = BigEndian.u32(body, 4), UInt64(count) * UInt64(width) <= UInt64(body.count - 8) else {
            throw .container(.badBoxSize(offset: offset))
        }
        let w = width / words
        return (0..<(Int(count) * words)).map { i in
            let p = 8 + i * w
            return w == 8 ? BigEndian.u64(body, p) ?? 0 : UInt64(BigEndian.u32(body, p) ?? 0)
        }
    }
}
