import Ground
import Synthesis
import TestLiterals
import Testing

/// `MP4SampleTables` on hand-built boxes: the compact `stz2` sizes, 64-bit `co64` offsets, a
/// multi-run `stsc`, a gap between chunks, and counts that overrun their box.
@Suite struct MP4SampleTablesTests {
    func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
    func be32(_ v: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    func be64(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    let fullBox: [UInt8] = [0, 0, 0, 0]

    /// moov (one `soun` track: 3 samples of 5, 6, 7 bytes in 2 chunks) then mdat.
    func file(mdatAt base: Int, stsc: [UInt8]? = nil) -> [UInt8] {
        let tkhd = box("tkhd", fullBox + [UInt8](repeating: 0, count: 8) + be32(9) + [UInt8](repeating: 0, count: 68))
        let mdhd = box("mdhd", fullBox + be32(0) + be32(0) + be32(48_000) + be32(3072) + be32(0))
        let hdlr = box("hdlr", fullBox + be32(0) + Array("soun".utf8) + [UInt8](repeating: 0, count: 13))
        let stts = box("stts", fullBox + be32(1) + be32(3) + be32(1024))
        let stscBox = box("stsc", stsc ?? (fullBox + be32(2) + be32(1) + be32(2) + be32(1) + be32(2) + be32(1) + be32(1)))
        let stz2 = box("stz2", fullBox + [0, 0, 0, 16] + be32(3) + [0, 5, 0, 6, 0, 7])
        let payload = base + 8
        let co64 = box("co64", fullBox + be32(2) + be64(UInt64(payload)) + be64(UInt64(payload + 15)))
        let stbl = box("stbl", stts + stscBox + stz2 + co64)
        let trak = box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", stbl)))
        return box("moov", trak)
    }

    @Test func compactSizesAndWideOffsets() throws {
        let moovLength = file(mdatAt: 0).count
        let moov = file(mdatAt: moovLength)
        let data: [UInt8] = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 0xEE, 0xEE, 0xEE, 0xEE, 3, 3, 3, 3, 3, 3, 3]
        let bytes = moov + box("mdat", data)
        let t = try #require(try MP4SampleTables(parsing: bytes).track(handler: "soun"))
        #expect(t.trackID == 9 && t.timescale == 48_000)
        let m = moovLength + 8
        #expect(t.samples.map(\.offset) == [m, m + 5, m + 15])
        #expect(t.samples.map(\.size) == [5, 6, 7])
        #expect(t.samples.map(\.dts) == [0, 1024, 2048])
        #expect(t.byteCount == 18)
        var es: [UInt8] = []
        for s in t.samples { es += bytes[s.offset..<(s.offset + s.size)] }
        #expect(es == [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3], "the gap between chunks is not stream data")
    }

    @Test func hostileCountsAndOffsets() {
        // stsc claiming 1000 runs in a 12-byte table.
        let overrun = fullBox + be32(1000) + be32(1) + be32(2) + be32(1)
        #expect(throws: MP4TableError.tooMany("stsc")) { try MP4SampleTables(parsing: file(mdatAt: 0, stsc: overrun)) }
        // Chunk offsets pointing past the end of the file (no mdat at all).
        #expect(throws: MP4TableError.outOfFile(0)) { try MP4SampleTables(parsing: file(mdatAt: 10_000)) }
        // stsc mapping 3 samples per chunk: more samples than stsz has.
        let tooMany = fullBox + be32(1) + be32(1) + be32(3) + be32(1)
        let moovLength = file(mdatAt: 0).count
        #expect(throws: MP4TableError.invalid("stsc maps more samples than stsz")) {
            try MP4SampleTables(parsing: file(mdatAt: moovLength, stsc: tooMany) + box("mdat", [UInt8](repeating: 0, count: 40)))
        }
    }
}
