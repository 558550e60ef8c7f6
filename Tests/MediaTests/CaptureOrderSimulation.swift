import CaptureFormat
import Crypto
import Foundation

/// Builds a streamed-chunk record for an MP4 the way the capture app's interleaving does,
/// from `SampleTableReader` (not libavformat): per track, samples in table order cut into
/// chunks; each chunk completes at the end time of the sample holding its last byte plus a
/// deterministic jitter uniform in [0, 0.030) s (kept in index order per track, as a writer
/// finishes a track's chunks in order); leaves sorted by that time, ties video first.
struct CaptureOrderSimulation {
    struct Leaf { var track: StreamedChunks.Track; var index: Int; var time: Double; var digest: ContentDigest }
    var leaves: [Leaf] = []

    init(path: String, chunkSize: Int, seed: UInt64, jitter: Double = 0.030) throws {
        let table = try SampleTableReader(path: path)
        for t in table.tracks {
            let track: StreamedChunks.Track
            switch t.handler {
            case "vide": track = .video
            case "soun": track = .audio
            default: continue
            }
            var pending: [UInt8] = []
            var index = 0
            var last = -Double.infinity
            func emit(_ end: Double) {
                let j = CaptureOrderSimulation.jitter(seed: seed, track: track, index: index) * jitter
                last = max(last, end + j)
                leaves.append(Leaf(track: track, index: index,
                                   time: last, digest: StreamedChunks.chunkHash(track: track, index: UInt64(index), bytes: pending)))
                index += 1
                pending.removeAll(keepingCapacity: true)
            }
            for s in t.samples {
                var o = s.offset
                var left = s.size
                while left > 0 {
                    let take = min(left, chunkSize - pending.count)
                    pending += table.bytes[o..<(o + take)]
                    o += take
                    left -= take
                    if pending.count == chunkSize { emit(s.endTime) }
                }
            }
            if !pending.isEmpty, let end = t.samples.last?.endTime { emit(end) }
        }
        leaves.sort { a, b in a.time != b.time ? a.time < b.time : (a.track == .video && b.track == .audio) }
    }

    /// Uniform in [0, 1) from SHA-256(seed ‖ track ‖ index).
    static func jitter(seed: UInt64, track: StreamedChunks.Track, index: Int) -> Double {
        let d = MessageDigest.sha256(Array("\(seed)/\(track.rawValue)/\(index)".utf8))
        let v = d.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(v >> 11) / Double(1 << 53)
    }

    var videoCount: Int { leaves.filter { $0.track == .video }.count }
    var audioCount: Int { leaves.filter { $0.track == .audio }.count }

    func record(chunkSize: Int) -> StreamedChunksRecord {
        StreamedChunksRecord(chunkSize: chunkSize, root: MerkleTree(leaves: leaves.map(\.digest)).root,
                             videoChunks: videoCount, audioChunks: audioCount)
    }

    /// The record with the leaf at `i` swapped with its neighbour of the other track (a
    /// perturbed completion order), or nil when no such neighbour exists.
    func perturbedRecord(chunkSize: Int, far: Int) -> StreamedChunksRecord? {
        // Move the first audio leaf `far` positions later: beyond any window or shift.
        guard let a = leaves.firstIndex(where: { $0.track == .audio }), a + far < leaves.count else { return nil }
        var l = leaves
        let moved = l.remove(at: a)
        l.insert(moved, at: a + far)
        return StreamedChunksRecord(chunkSize: chunkSize, root: MerkleTree(leaves: l.map(\.digest)).root,
                                    videoChunks: videoCount, audioChunks: audioCount)
    }
}
