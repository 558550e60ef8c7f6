import CaptureFormat
import Ground

/// Recomputes the streamed-chunk commitment (`context.streamedChunks`) from a delivery file:
/// per-track chunk hashes from the elementary streams (`ElementaryStreams`), counts checked
/// against the record, then the global completion order inferred from sample timing with a
/// bounded search (`CompletionOrderSearch`) until an order's Merkle root equals the signed one.
public struct StreamedChunkRecomputer: Sendable {
    public var search: CompletionOrderSearch

    public init(search: CompletionOrderSearch = CompletionOrderSearch()) {
        self.search = search
    }

    /// Largest chunk size a record may state and still be recomputed (64 MiB).
    public static let maxChunkSize = 64 << 20

    public func recompute(path: String, expected: StreamedChunksRecord?) -> ChunkRecomputation {
        guard let expected else { return ChunkRecomputation(state: .absent) }
        do {
            return recompute(source: try FileByteSource.media(path), name: path, expected: expected)
        } catch {
            return notRecomputable(expected, MediaFinding(code: error.code, detail: error.description))
        }
    }

    public func recompute(source: any ByteSource, name: String = "", expected: StreamedChunksRecord?) -> ChunkRecomputation {
        guard let expected else { return ChunkRecomputation(state: .absent) }
        guard expected.chunkSize > 0, expected.chunkSize <= StreamedChunkRecomputer.maxChunkSize else {
            return notRecomputable(expected, MediaFinding(code: StatusCode.streamedChunkSizeUnsupported,
                                                          detail: "record states chunkSize \(expected.chunkSize)"))
        }
        let streams: ElementaryStreams.Result
        do {
            streams = try ElementaryStreams.chunks(source: source, name: name, chunkSize: expected.chunkSize)
        } catch {
            return notRecomputable(expected, MediaFinding(code: error.code, detail: error.description))
        }
        return compare(streams, expected: expected)
    }

    /// The counts check and the order search over already computed per-track chunks.
    public func compare(_ streams: ElementaryStreams.Result, expected: StreamedChunksRecord) -> ChunkRecomputation {
        let video = streams.video?.digests ?? []
        let audio = streams.audio?.digests ?? []
        let videoTimes = streams.video?.completionTimes ?? []
        let audioTimes = streams.audio?.completionTimes ?? []
        var result = ChunkRecomputation(
            state: .notRecomputable,
            videoChunks: .init(computed: video.count, recorded: expected.videoChunks),
            audioChunks: .init(computed: audio.count, recorded: expected.audioChunks),
            rootRecorded: expected.root, findings: streams.findings)
        let base = CompletionOrderSearch.labels(
            videoBefore: CompletionOrderSearch.baseVideoBefore(video: videoTimes, audio: audioTimes), videoCount: video.count)
        result.rootComputed = try? StreamedChunks.root(video: video, audio: audio, order: base)
        guard streams.findings.isEmpty else { return result }
        guard video.count == expected.videoChunks, audio.count == expected.audioChunks else {
            result.findings.append(MediaFinding(code: StatusCode.streamedCountMismatch,
                detail: "video \(video.count) computed / \(expected.videoChunks) recorded, audio \(audio.count) / \(expected.audioChunks)"))
            return result
        }
        guard let baseLeaves = try? StreamedChunks.leaves(video: video, audio: audio, order: base) else { return result }
        let update = MerkleRootUpdate(base: baseLeaves)
        var found: CompletionOrderSearch.Candidate?
        result.ordersTried = search.search(video: videoTimes, audio: audioTimes) { candidate in
            guard let root = Self.root(of: candidate.order, base: base, update: update, video: video, audio: audio) else { return false }
            if root == expected.root { found = candidate; return true }
            return false
        }
        if let found {
            result.state = .recomputed
            result.order = found.description
        }
        return result
    }

    /// The root for `order`, rehashing only the nodes above the leaves where it differs from
    /// the base order (both orders hold the same chunks, so the tree shapes agree).
    static func root(of order: [StreamedChunks.Track], base: [StreamedChunks.Track], update: MerkleRootUpdate,
                     video: [ContentID], audio: [ContentID]) -> ContentID? {
        guard order.count == base.count else { return nil }
        guard let first = order.indices.first(where: { order[$0] != base[$0] }),
              let last = order.indices.last(where: { order[$0] != base[$0] }) else { return update.base.root }
        // Chunk indices at `first`: the orders agree before it.
        var vi = 0, ai = 0
        for t in base[..<first] { if t == .video { vi += 1 } else { ai += 1 } }
        var changed: [ContentID] = []
        changed.reserveCapacity(last - first + 1)
        for t in order[first...last] {
            switch t {
            case .video:
                guard vi < video.count else { return nil }
                changed.append(video[vi]); vi += 1
            case .audio:
                guard ai < audio.count else { return nil }
                changed.append(audio[ai]); ai += 1
            }
        }
        return update.root(replacing: changed[...], at: first)
    }

    private func notRecomputable(_ expected: StreamedChunksRecord, _ finding: MediaFinding) -> ChunkRecomputation {
        ChunkRecomputation(state: .notRecomputable, rootRecorded: expected.root, findings: [finding])
    }
}
