import Crypto
import Ground

/// The streamed capture commitment (seed: "The streamed capture commitment", wire format).
///
/// Per track, the concatenated elementary-stream bytes are cut into 1 MiB chunks;
/// chunk hash = SHA-256(trackId UTF-8 ‖ chunkIndex UInt64 big-endian ‖ chunk bytes), index from
/// 0 per track, a trailing partial chunk at its real length. The Merkle tree is over the raw
/// chunk hashes in global completion order.
public enum StreamedChunks {
    public static let chunkSize = 1_048_576

    /// The track identifiers of the wire format.
    public enum Track: String, Sendable, CaseIterable, Hashable {
        case video, audio
    }

    /// One chunk's hash as the chunk hasher emits it.
    public struct Chunk: Sendable, Equatable {
        public var track: Track
        public var index: UInt64
        public var byteCount: Int
        public var digest: ContentID
    }

    /// Hash of one whole chunk held in memory.
    public static func chunkHash(track: Track, index: UInt64, bytes: [UInt8]) -> ContentID {
        ContentID.sha256(concatenating: [Array(track.rawValue.utf8), bigEndian(index), bytes])
    }

    static func bigEndian(_ v: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * UInt64($0))) }
    }

    /// Why an interleaving could not be applied.
    public enum OrderError: Error, Equatable, Sendable {
        case tooManyChunks(Track)
        case chunksLeftOver(video: Int, audio: Int)

        public var code: String {
            switch self {
            case .tooManyChunks: StatusCode.streamedOrderTooManyChunks
            case .chunksLeftOver: StatusCode.streamedOrderChunksLeftOver
            }
        }
    }

    /// Interleaves per-track chunk hashes in a global completion order (one track label per
    /// leaf: the next not-yet-used chunk of that track). The order must use every chunk once.
    public static func leaves(video: [ContentID], audio: [ContentID], order: [Track]) throws(OrderError) -> [ContentID] {
        var vi = 0, ai = 0
        var out: [ContentID] = []
        out.reserveCapacity(order.count)
        for t in order {
            switch t {
            case .video:
                guard vi < video.count else { throw .tooManyChunks(.video) }
                out.append(video[vi]); vi += 1
            case .audio:
                guard ai < audio.count else { throw .tooManyChunks(.audio) }
                out.append(audio[ai]); ai += 1
            }
        }
        guard vi == video.count, ai == audio.count else {
            throw .chunksLeftOver(video: video.count - vi, audio: audio.count - ai)
        }
        return out
    }

    /// The root over chunk hashes interleaved in `order`.
    public static func root(video: [ContentID], audio: [ContentID], order: [Track]) throws(OrderError) -> ContentID {
        MerkleTree(leaves: try leaves(video: video, audio: audio, order: order)).root
    }
}

/// Streams one track's elementary-stream bytes into chunk hashes in constant memory.
///
/// Feed bytes in any slicing with `append`; each completed 1 MiB chunk's hash is returned as
/// soon as its last byte arrives; `finish` returns the trailing partial chunk, if any.
public final class TrackChunkHasher {
    public let track: StreamedChunks.Track
    public let chunkSize: Int
    private let hasher = MessageDigest(.sha256)
    private var index: UInt64 = 0
    private var filled = 0
    private var started = false

    public init(track: StreamedChunks.Track, chunkSize: Int = StreamedChunks.chunkSize) {
        precondition(chunkSize > 0, "chunk size must be positive")
        self.track = track
        self.chunkSize = chunkSize
    }

    /// Chunks emitted so far.
    public var chunkCount: UInt64 { index }

    public func append(_ bytes: UnsafeRawBufferPointer) -> [StreamedChunks.Chunk] {
        var done: [StreamedChunks.Chunk] = []
        var offset = 0
        while offset < bytes.count {
            if !started { beginChunk() }
            let take = min(chunkSize - filled, bytes.count - offset)
            hasher.update(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            filled += take
            offset += take
            if filled == chunkSize { done.append(endChunk()) }
        }
        return done
    }

    public func append(_ bytes: [UInt8]) -> [StreamedChunks.Chunk] {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Ends the stream: the trailing partial chunk, or nil when the bytes ended on a boundary.
    public func finish() -> StreamedChunks.Chunk? {
        guard started else { return nil }
        return endChunk()
    }

    private func beginChunk() {
        hasher.update(Array(track.rawValue.utf8))
        hasher.update(StreamedChunks.bigEndian(index))
        started = true
        filled = 0
    }

    private func endChunk() -> StreamedChunks.Chunk {
        let chunk = StreamedChunks.Chunk(track: track, index: index, byteCount: filled,
                                         digest: ContentID(digest: hasher.finalize())!)
        index += 1
        started = false
        filled = 0
        return chunk
    }
}
