import CaptureFormat
import Foundation
import Ground
@testable import Media
import TestLiterals
import Testing

@Suite struct StreamedChunkTests {
    /// The bytes libavformat yields per track are exactly the sample-table bytes (AVCC H.264,
    /// raw AAC): every chunk hash agrees with capture-synth's own sample-table reader's.
    @Test func elementaryStreamBytesMatchTheSampleTables() throws {
        let path = try MediaFixtures.mp4(seconds: 4)
        let chunk = 64 << 10
        let sim = try CaptureOrderSimulation(path: path, chunkSize: chunk, seed: 1)
        let es = try ElementaryStreams.chunks(path: path, chunkSize: chunk)
        #expect(es.findings.isEmpty)
        let v = try #require(es.video), a = try #require(es.audio)
        #expect(v.digests == sim.leaves.filter { $0.track == .video }.sorted { $0.index < $1.index }.map(\.digest))
        #expect(a.digests == sim.leaves.filter { $0.track == .audio }.sorted { $0.index < $1.index }.map(\.digest))
        #expect(v.byteCount == v.announcedByteCount)
        #expect(v.digests.count > 10 && a.digests.count >= 1)
        // Each chunk's completion time is a sample end: within the file's 4 s, non-decreasing.
        #expect(zip(v.completionTimes, v.completionTimes.dropFirst()).allSatisfy { $0 <= $1 })
        #expect((v.completionTimes.last ?? 0) > 3.9 && (v.completionTimes.last ?? 0) <= 4.05)
    }

    /// Records built with the app's jittered interleaving are recomputed, for many jitters;
    /// some of them need a perturbation of the base order.
    @Test func jitteredOrdersAreRecomputed() throws {
        let path = try MediaFixtures.mp4(seconds: 6, bitrate: "2M")
        let chunk = 16 << 10
        let es = try ElementaryStreams.chunks(path: path, chunkSize: chunk)
        var nonBase = 0
        for seed in UInt64(0)..<24 {
            let sim = try CaptureOrderSimulation(path: path, chunkSize: chunk, seed: seed)
            let record = sim.record()
            let r = StreamedChunkRecomputer().compare(es, expected: record)
            #expect(r.state == .recomputed, "seed \(seed): \(r)")
            #expect(r.videoChunks == .init(computed: sim.videoCount, recorded: sim.videoCount))
            #expect(r.ordersTried >= 1)
            if r.order != "base" { nonBase += 1 }
        }
        #expect(nonBase > 0)
    }

    @Test func recomputeFromPathWithFullSizeChunks() throws {
        let path = try MediaFixtures.mp4(seconds: 4)
        let sim = try CaptureOrderSimulation(path: path, chunkSize: StreamedChunks.chunkSize, seed: 7)
        let r = StreamedChunkRecomputer().recompute(path: path, expected: sim.record())
        #expect(r.state == .recomputed)
        #expect(r.rootRecorded == sim.record().root)
        let back = try JSONDecoder().decode(ChunkRecomputation.self, from: JSONEncoder().encode(r))
        #expect(back == r)
    }

    @Test func perturbedOrderIsNotRecomputable() throws {
        let path = try MediaFixtures.mp4(seconds: 6, bitrate: "2M")
        let chunk = 16 << 10
        let sim = try CaptureOrderSimulation(path: path, chunkSize: chunk, seed: 3)
        let record = try #require(try sim.perturbedRecord(far: 12))
        let r = StreamedChunkRecomputer().recompute(path: path, expected: record)
        #expect(r.state == .notRecomputable)
        #expect(r.ordersTried > 1)
        #expect(r.order == nil)
        #expect(r.findings.isEmpty)
    }

    @Test func noCommitmentIsAbsent() throws {
        let path = try MediaFixtures.mp4(seconds: 4)
        let r = StreamedChunkRecomputer().recompute(path: path, expected: nil)
        #expect(r.state == .absent)
        #expect(r.ordersTried == 0)
    }

    @Test func countMismatchIsNamed() throws {
        let path = try MediaFixtures.mp4(seconds: 4)
        let sim = try CaptureOrderSimulation(path: path, chunkSize: StreamedChunks.chunkSize, seed: 1)
        var record = sim.record()
        record.videoChunks += 1
        let r = StreamedChunkRecomputer().recompute(path: path, expected: record)
        #expect(r.state == .notRecomputable)
        #expect(r.findings.map(\.code) == ["streamed.countMismatch"])
        #expect(r.ordersTried == 0)
    }

    /// A fast-start file cut inside `mdat`: the header opens, the samples run short.
    @Test func truncatedFileIsANamedFinding() throws {
        let path = try MediaFixtures.mp4(seconds: 4, faststart: true)
        let bytes = try MediaFixtures.bytes(path)
        let cut = try MediaFixtures.write(Array(bytes.prefix(bytes.count * 2 / 3)), "truncated-fs.mp4")
        let sim = try CaptureOrderSimulation(path: path, chunkSize: StreamedChunks.chunkSize, seed: 1)
        let r = StreamedChunkRecomputer().recompute(path: cut, expected: sim.record())
        #expect(r.state == .notRecomputable)
        #expect(r.findings.contains { $0.code == "media.truncated" }, "\(r.findings)")
    }

    /// A file cut before its trailing `moov`: nothing opens.
    @Test func truncatedBeforeMoovIsANamedFinding() throws {
        let path = try MediaFixtures.mp4(seconds: 4)
        let bytes = try MediaFixtures.bytes(path)
        let cut = try MediaFixtures.write(Array(bytes.prefix(bytes.count / 2)), "truncated-nomoov.mp4")
        let sim = try CaptureOrderSimulation(path: path, chunkSize: StreamedChunks.chunkSize, seed: 1)
        let r = StreamedChunkRecomputer().recompute(path: cut, expected: sim.record())
        #expect(r.state == .notRecomputable)
        #expect(r.findings.map(\.code) == ["media.unrecognizedContainer"])
    }

    @Test func searchEnumeratesNearbyOrdersWithinBudget() {
        let s = CompletionOrderSearch(window: 0.030, maxShift: 1, maxOrders: 5)
        // Video chunks at 1,2,3,4 s; audio at 2.01 s (within the window of video 2 s) and 3.5 s.
        var seen: [String] = []
        let tried = s.search(video: [1, 2, 3, 4], audio: [2.01, 3.5]) { c in
            seen.append(c.description)
            return false
        }
        #expect(tried == 5)
        #expect(seen.first == "base")
        #expect(seen[1] == "window: audio[0] -1")
        #expect(CompletionOrderSearch.labels(videoBefore: [2, 3], videoCount: 4) == [.video, .video, .audio, .video, .audio, .video])
    }
}

extension StreamedChunkTests {
    /// The partial rehash agrees with a full tree for every run of replaced leaves, at sizes
    /// with odd levels.
    @Test func partialRootUpdateEqualsFullTree() {
        for n in [1, 2, 3, 5, 8, 13, 33] {
            let base = (0..<n).map { StreamedChunks.chunkHash(track: .video, index: UInt64($0), bytes: []) }
            let update = MerkleRootUpdate(base: base)
            for start in 0..<n {
                for len in 1...(n - start) {
                    var leaves = base
                    for i in start..<(start + len) { leaves[i] = StreamedChunks.chunkHash(track: .audio, index: UInt64(i), bytes: [1]) }
                    #expect(update.root(replacing: leaves[start..<(start + len)], at: start) == MerkleTree(leaves: leaves).root,
                            "n \(n) start \(start) len \(len)")
                }
            }
        }
    }

    /// Orders computed through the partial rehash equal `StreamedChunks.root` over the full order.
    @Test func candidateRootsEqualFullRoots() throws {
        let video = (0..<9).map { StreamedChunks.chunkHash(track: .video, index: UInt64($0), bytes: []) }
        let audio = (0..<3).map { StreamedChunks.chunkHash(track: .audio, index: UInt64($0), bytes: []) }
        let vt = (1...9).map(Double.init), at = [2.01, 5.5, 8.99]
        let base = CompletionOrderSearch.labels(videoBefore: CompletionOrderSearch.baseVideoBefore(video: vt, audio: at), videoCount: 9)
        let update = MerkleRootUpdate(base: try StreamedChunks.leaves(video: video, audio: audio, order: base))
        var n = 0
        CompletionOrderSearch(window: 0.03, maxShift: 3, maxOrders: 500).search(video: vt, audio: at) { c in
            n += 1
            let fast = StreamedChunkRecomputer.root(of: c.order, base: base, update: update, video: video, audio: audio)
            #expect(fast == (try? StreamedChunks.root(video: video, audio: audio, order: c.order)), "\(c.description)")
            return false
        }
        #expect(n > 50)
    }
}
