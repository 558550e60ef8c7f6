import CaptureFormat
import Crypto
import Foundation
import Ground
import Synthesis
import TestLiterals

/// A streamed-chunk record for an MP4 made the way capture-synth simulates the app's
/// interleaving (`StreamedChunkSimulation`: its own MP4 sample-table parser, not libavformat;
/// each chunk completes at its last byte's sample end plus a jitter in [0, 0.030) s; sorted,
/// ties video first), with a jitter drawn from `seed` here.
struct CaptureOrderSimulation {
    let sim: StreamedChunkSimulation
    let chunkSize: Int

    init(path: String, chunkSize: Int, seed: UInt64) throws {
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        self.chunkSize = chunkSize
        sim = try StreamedChunkSimulation(file: file, tables: try MP4SampleTables(parsing: file), chunkSize: chunkSize) { track, index in
            CaptureOrderSimulation.jitter(seed: seed, track: track, index: index) * StreamedChunkSimulation.maximumJitter
        }
    }

    /// Uniform in [0, 1) from SHA-256(seed ‖ track ‖ index).
    static func jitter(seed: UInt64, track: StreamedChunks.Track, index: Int) -> Double {
        let d = MessageDigest.sha256(Array("\(seed)/\(track.rawValue)/\(index)".utf8))
        let v = d.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(v >> 11) / Double(1 << 53)
    }

    var leaves: [StreamedChunkSimulation.Leaf] { sim.leaves }
    var videoCount: Int { sim.videoChunks }
    var audioCount: Int { sim.audioChunks }

    func record() -> StreamedChunksRecord {
        StreamedChunksRecord(chunkSize: chunkSize, root: sim.root, videoChunks: videoCount, audioChunks: audioCount)
    }

    /// The record with the first audio leaf moved `far` leaves later: beyond any window or shift.
    func perturbedRecord(far: Int) throws -> StreamedChunksRecord? {
        var labels = leaves.map(\.track)
        guard let a = labels.firstIndex(of: .audio), a + far < labels.count else { return nil }
        labels.remove(at: a)
        labels.insert(.audio, at: a + far)
        let video = leaves.filter { $0.track == .video }.sorted { $0.index < $1.index }.map(\.digest)
        let audio = leaves.filter { $0.track == .audio }.sorted { $0.index < $1.index }.map(\.digest)
        return StreamedChunksRecord(chunkSize: chunkSize, root: try StreamedChunks.root(video: video, audio: audio, order: labels),
                                    videoChunks: videoCount, audioChunks: audioCount)
    }
}
