import CaptureFormat
import Foundation
import Ground
@testable import Media
import Synthesis
import TestLiterals
import Testing

/// Corrupt, truncated and oversized inputs: each yields a named error or finding, never a crash.
@Suite struct HostileMediaTests {
    func code(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch let e as MediaError { return e.code } catch { return "not-a-MediaError" }
    }

    @Test func garbageIsUnrecognized() {
        let junk = MemoryByteSource((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })
        #expect(code { _ = try MediaFacts.read(source: junk) } == "media.unrecognizedContainer")
        #expect(code { _ = try MediaFacts.read(source: MemoryByteSource([])) } == "media.unrecognizedContainer")
    }

    /// Found by fuzz-caf (fuzz/, 2026-12-02): a CAF `desc` chunk whose sample rate, channel
    /// count and bits per channel multiply past Int.max made the PCM bit rate overflow (a trap).
    /// The facts are read; the bit rate that does not fit is left out.
    @Test func pcmBitRateThatOverflowsIsLeftOut() throws {
        let bytes = try #require(Data(base64Encoded: "Y2FmZgABAABkZXNjAAAAAAAAACBAz0AAAAAAAGxwY00AAAACAAAAAgBscGNNAAAAAgAAAAIAAAABAAAAAQAAAABscCMAAG0AAgAAAGRhdGEA6A4KCP//////AAAA+v///////////////////////////////////////////////////////////////////////////////////////////3YGzQFQAnZ0dHPf39/f39/f39/f39/f8A=="))
        // Over the old media source libav read this file's `desc` (16 kHz, 1,291,845,632
        // channels, 33,554,432 bits) and the product trapped; over Ground's memory source libav
        // now stops earlier and names the input. Either way: a named outcome, never a trap.
        do {
            let facts = try MediaFacts.read(source: MemoryByteSource(Array(bytes)), name: "audio.caf")
            #expect(facts.streams.allSatisfy { !($0.channels == 1_291_845_632 && $0.bitRate != nil) })
        } catch {
            #expect(["media.unrecognizedContainer", "media.corrupt"].contains(error.code), "\(error)")
        }
    }

    /// A CAF header whose counts multiply past 64 bits (reviewed by hand, 2026-12-02; a fuzzer's
    /// inputs are too small to reach it): 3 GB of audio declared as one-byte packets of 2³² − 1
    /// frames each overflowed the frame count, and 2³¹-byte packets at 2³¹ − 1 Hz gave a
    /// sub-nanosecond duration whose bit rate overflowed Int. Both trapped; now the counts that do
    /// not fit are left out and the other facts are read.
    @Test func cafCountsPastSixtyFourBitsAreLeftOut() throws {
        let size: Int64 = 3_000_000_000
        for (bytesPerPacket, framesPerPacket) in [(UInt32(1), UInt32.max), (UInt32(1) << 31, UInt32(1))] {
            let source = SyntheticCAF(count: size, header: SyntheticCAF.header(
                rate: Double(Int32.max), bytesPerPacket: bytesPerPacket, framesPerPacket: framesPerPacket,
                dataChunkSize: size - 64))
            let facts = try MediaFacts.read(source: source, name: "audio.caf")
            #expect(facts.container == "caf")
            #expect(facts.size == size)
            #expect(facts.streams.first?.codec == "pcm_s16be")
            if framesPerPacket == UInt32.max {
                #expect(facts.streams.first?.frameCount == nil && facts.durationSeconds == nil)
            } else {
                #expect(facts.streams.first?.frameCount == 1 && facts.bitRate == nil)
            }
        }
    }

    @Test func missingFileCannotOpen() {
        #expect(code { _ = try MediaFacts.read(path: "/nonexistent/x.mp4") } == "media.cannotOpen")
        #expect(code { _ = try MediaFacts.read(path: "/tmp") } == "media.cannotOpen")
    }

    @Test func truncatedJPEGIsNamed() throws {
        let bytes = try MediaFixtures.bytes(try MediaFixtures.jpeg())
        for cut in [2, 20, 120, 400] {
            let src = MemoryByteSource(Array(bytes.prefix(cut)))
            let c = code { _ = try Thumbnail.make(source: src) }
            #expect(["media.unrecognizedContainer", "media.decodeFailed", "media.corrupt"].contains(c), "cut \(cut): \(c ?? "nil")")
        }
    }

    /// A truncated JPEG body still decodes (libavcodec conceals the missing rows): a thumbnail,
    /// not a crash. The thumbnail is a derived picture, never evidence.
    @Test func jpegCutInTheScanStillDecodes() throws {
        let bytes = try MediaFixtures.bytes(try MediaFixtures.jpeg())
        let t = try Thumbnail.make(source: MemoryByteSource(Array(bytes.prefix(bytes.count / 2))))
        #expect(t.width == 320)
    }

    /// SOF0 rewritten to claim 40000 × 40000: rejected before a 2.4 GB picture is allocated.
    @Test func hugeJPEGDimensionsAreRejected() throws {
        var bytes = try MediaFixtures.bytes(try MediaFixtures.jpeg())
        let sof = try #require((0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0x9C; bytes[sof + 6] = 0x40  // height 40000
        bytes[sof + 7] = 0x9C; bytes[sof + 8] = 0x40  // width 40000
        let c = code { _ = try Thumbnail.make(source: MemoryByteSource(bytes)) }
        #expect(c == "media.decodeFailed" || c == "media.dimensionsTooLarge", "\(c ?? "nil")")
        let p = Parallax.measure(primary: MemoryByteSource(bytes), second: MemoryByteSource(bytes))
        #expect(p.reason == .tooFewDecodableFrames)
        // Facts: libav probes with the same max_pixels cap; the size is either refused or stated.
        do {
            let f = try MediaFacts.read(source: MemoryByteSource(bytes))
            #expect(f.streams.first?.codec == "mjpeg")
        } catch {
            #expect(["media.corrupt", "media.dimensionsTooLarge"].contains(error.code))
        }
    }

    /// The `moov` box overwritten with noise: the header cannot be read, by any entry point.
    @Test func corruptMoovIsNamed() throws {
        var bytes = try MediaFixtures.bytes(try MediaFixtures.mp4(seconds: 2, faststart: true))
        let moov = try #require((4..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)] == [0x6D, 0x6F, 0x6F, 0x76] })
        for i in (moov + 4)..<min(bytes.count, moov + 4000) { bytes[i] = UInt8(truncatingIfNeeded: i &* 2654435761 >> 7) }
        let path = try MediaFixtures.write(bytes, "corrupt-moov.mp4")
        let expected: Set<String> = ["media.unrecognizedContainer", "media.corrupt", "media.noSuchStream"]
        let f = code { _ = try MediaFacts.read(path: path) }
        #expect(f == nil || expected.contains(f ?? ""), "\(f ?? "nil")")
        let t = code { _ = try Thumbnail.make(path: path) }
        #expect(t.map { expected.contains($0) || $0 == "media.decodeFailed" } ?? false, "\(t ?? "nil")")
        let record = StreamedChunksRecord(chunkSize: StreamedChunks.chunkSize, root: MerkleTree.emptyRoot, videoChunks: 1, audioChunks: 1)
        let r = StreamedChunkRecomputer().recompute(path: path, expected: record)
        #expect(r.state == .notRecomputable)
        #expect(!r.findings.isEmpty || r.videoChunks?.computed != 1)
    }

    /// Sample bytes flipped inside `mdat`: the chunks differ, so the root is not reproduced;
    /// the read itself completes (the container is intact).
    @Test func flippedSampleBytesAreNotRecomputable() throws {
        let path = try MediaFixtures.mp4(seconds: 4)
        let sim = try CaptureOrderSimulation(path: path, chunkSize: StreamedChunks.chunkSize, seed: 1)
        var bytes = try MediaFixtures.bytes(path)
        let table = try MP4SampleTables(parsing: bytes)
        let sample = try #require(table.track(handler: "vide")?.samples[10])
        bytes[sample.offset + sample.size / 2] ^= 0x01
        let flipped = try MediaFixtures.write(bytes, "flipped.mp4")
        let r = StreamedChunkRecomputer().recompute(path: flipped, expected: sim.record())
        #expect(r.state == .notRecomputable)
        #expect(r.findings.isEmpty)
        #expect(r.ordersTried >= 1)
    }

    @Test func tooManyStreamsIsNamed() throws {
        var args = ["-f", "lavfi", "-i", "sine=frequency=200:sample_rate=8000:duration=0.2"]
        for _ in 0..<(MediaLimits.maxStreams + 2) { args += ["-map", "0:a"] }
        args += ["-c:a", "aac", "-b:a", "16k"]
        let path = try MediaFixtures.make("many-streams.mp4", args)
        #expect(code { _ = try MediaFacts.read(path: path) } == "media.tooManyStreams")
        let r = StreamedChunkRecomputer().recompute(path: path, expected: StreamedChunksRecord(
            chunkSize: StreamedChunks.chunkSize, root: MerkleTree.emptyRoot, videoChunks: 0, audioChunks: 1))
        #expect(r.state == .notRecomputable)
        #expect(r.findings.map(\.code) == ["media.tooManyStreams"])
    }

    @Test func unsupportedRecordedChunkSizeIsNamed() throws {
        let path = try MediaFixtures.mp4(seconds: 2)
        for size in [0, -1, StreamedChunkRecomputer.maxChunkSize + 1] {
            let r = StreamedChunkRecomputer().recompute(path: path, expected: StreamedChunksRecord(
                chunkSize: size, root: MerkleTree.emptyRoot, videoChunks: 1, audioChunks: 1))
            #expect(r.findings.map(\.code) == ["streamed.chunkSizeUnsupported"])
        }
    }
}

extension HostileMediaTests {
    /// One `stsz` entry rewritten to claim a 2 GiB sample: libavformat refuses the sample and
    /// stops indexing the track there (nothing of that size is allocated); the header's own
    /// sample count names the shortfall.
    @Test func hugeSampleSizeClaimIsBounded() throws {
        var bytes = try MediaFixtures.bytes(try MediaFixtures.mp4(seconds: 2, faststart: true))
        let stsz = try #require((4..<(bytes.count - 24)).first { bytes[$0..<($0 + 4)] == [0x73, 0x74, 0x73, 0x7A] })
        // stsz: type, version/flags (4), sample_size (4), sample_count (4), entries; patch entry 5.
        let entry = stsz + 4 + 12 + 4 * 5
        bytes.replaceSubrange(entry..<(entry + 4), with: [0x7F, 0xFF, 0xFF, 0xF0])
        let path = try MediaFixtures.write(bytes, "huge-sample.mp4")
        let r = try ElementaryStreams.chunks(path: path)
        #expect(r.findings.map(\.code) == ["media.sampleCountMismatch"], "\(r.findings)")
        #expect(r.sourceBytesRead <= Int64(bytes.count) * 2)
        let rec = StreamedChunkRecomputer().recompute(path: path, expected: StreamedChunksRecord(
            chunkSize: StreamedChunks.chunkSize, root: MerkleTree.emptyRoot, videoChunks: 1, audioChunks: 1))
        #expect(rec.state == .notRecomputable)
    }

    /// A sequential source (no seeking) over a fast-start file recomputes the same commitment.
    @Test func sequentialSourceRecomputes() throws {
        let path = try MediaFixtures.mp4(seconds: 4, faststart: true)
        let sim = try CaptureOrderSimulation(path: path, chunkSize: StreamedChunks.chunkSize, seed: 2)
        let r = StreamedChunkRecomputer().recompute(source: UnseekableSource(MemoryByteSource(try MediaFixtures.bytes(path))),
                                                    expected: sim.record())
        #expect(r.state == .recomputed)
    }
}

/// A CAF file of `count` bytes that exists only as its header: every byte past the header reads
/// as zero, so a 3 GB file costs nothing.
private struct SyntheticCAF: ByteSource {
    let count: Int64
    let header: [UInt8]

    /// `caff` v1, a 32-byte `desc` (linear PCM, big-endian signed 16-bit, one channel) and a
    /// `data` chunk of `dataChunkSize` bytes whose body starts at offset 64.
    static func header(rate: Double, bytesPerPacket: UInt32, framesPerPacket: UInt32, dataChunkSize: Int64) -> [UInt8] {
        func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        var h = Array("caff".utf8) + be(UInt16(1)) + be(UInt16(0))
        h += Array("desc".utf8) + be(Int64(32)) + be(rate.bitPattern) + Array("lpcm".utf8) + be(UInt32(0))
        h += be(bytesPerPacket) + be(framesPerPacket) + be(UInt32(1)) + be(UInt32(16))
        h += Array("data".utf8) + be(dataChunkSize) + be(UInt32(0))
        return h
    }

    func read(at offset: Int64, count n: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= count, n >= 0 else { throw .outOfRange(offset: offset, count: n) }
        let end = min(count, offset + Int64(n))
        return (offset..<end).map { $0 < Int64(header.count) ? header[Int($0)] : 0 }
    }

    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let bytes = try read(at: offset, count: buffer.count)
        buffer.copyBytes(from: bytes)
        return bytes.count
    }
}
