import CaptureFormat
import Ground

/// The streamed-chunk commitment of an MP4 as capture-synth simulates it (docs/capture-format.md
/// §7): per-track 1 MiB chunks of the elementary-stream bytes, each chunk completing at the end
/// time (dts + duration) of the sample holding its last byte plus a seeded jitter in
/// [0, 0.030) s; leaves sorted by completion time, ties video before audio, then by index.
public struct StreamedChunkSimulation: Sendable {
    public struct Leaf: Sendable, Equatable {
        public var track: StreamedChunks.Track
        public var index: Int
        public var completion: Double
        public var digest: ContentID
    }

    public let leaves: [Leaf]
    public let videoChunks: Int
    public let audioChunks: Int
    public let root: ContentID

    public static let maximumJitter = 0.030

    /// `jitter(track, index)` gives the per-chunk jitter; the generator draws it from the seed.
    public init(file: [UInt8], tables: MP4SampleTables, chunkSize: Int = StreamedChunks.chunkSize,
                jitter: (StreamedChunks.Track, Int) -> Double) throws(MP4TableError) {
        var all: [Leaf] = []
        var video: [ContentID] = [], audio: [ContentID] = []
        for (track, handler) in [(StreamedChunks.Track.video, "vide"), (.audio, "soun")] {
            guard let t = tables.track(handler: handler) else { continue }
            let hasher = TrackChunkHasher(track: track, chunkSize: chunkSize)
            var chunks: [StreamedChunks.Chunk] = []
            var ends: [Double] = []
            var lastEnd = 0.0
            for s in t.samples {
                guard s.offset >= 0, s.size >= 0, s.offset <= file.count - s.size else { throw .outOfFile(s.offset) }
                lastEnd = Double(s.dts + s.duration) / Double(t.timescale)
                let made = file.withUnsafeBytes { raw in hasher.append(UnsafeRawBufferPointer(rebasing: raw[s.offset..<(s.offset + s.size)])) }
                chunks += made
                ends += Array(repeating: lastEnd, count: made.count)
            }
            if let tail = hasher.finish() {
                chunks.append(tail)
                ends.append(lastEnd)
            }
            for (i, c) in chunks.enumerated() {
                all.append(Leaf(track: track, index: i, completion: ends[i] + jitter(track, i), digest: c.digest))
            }
            if track == .video { video = chunks.map(\.digest) } else { audio = chunks.map(\.digest) }
        }
        all.sort { a, b in
            if a.completion != b.completion { return a.completion < b.completion }
            if a.track != b.track { return a.track == .video }
            return a.index < b.index
        }
        leaves = all
        videoChunks = video.count
        audioChunks = audio.count
        do {
            root = try StreamedChunks.root(video: video, audio: audio, order: all.map(\.track))
        } catch {
            throw .invalid("order: \(error)")
        }
    }
}
