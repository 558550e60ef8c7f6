import CaptureFormat

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
            return recompute(source: try FileMediaSource(path: path), name: path, expected: expected)
        } catch {
            return notRecomputable(expected, MediaFinding(code: error.code, detail: error.description))
        }
    }

    public func recompute(source: MediaByteSource, name: String = "", expected: StreamedChunksRecord?) -> ChunkRecomputation {
        guard let expected else { return ChunkRecomputation(state: .absent) }
        guard expected.chunkSize > 0, expected.chunkSize <= StreamedChunkRecomputer.maxChunkSize else {
            return notRecomputable(expected, MediaFinding(code: "streamed.chunkSizeUnsupported",
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
            rootRecorded: expected.root.hex, findings: streams.findings)
        let base = CompletionOrderSearch.labels(
            videoBefore: CompletionOrderSearch.baseVideoBefore(video: videoTimes, audio: audioTimes), videoCount: video.count)
        result.rootComputed = try? StreamedChunks.root(video: video, audio: audio, order: base).hex
        guard streams.findings.isEmpty else { return result }
        guard video.count == expected.videoChunks, audio.count == expected.audioChunks else {
            result.findings.append(MediaFinding(code: "streamed.countMismatch",
                detail: "video \(video.count) computed / \(expected.videoChunks) recorded, audio \(audio.count) / \(expected.audioChunks)"))
            return result
        }
        var found: CompletionOrderSearch.Candidate?
        result.ordersTried = search.search(video: videoTimes, audio: audioTimes) { candidate in
            guard let root = try? StreamedChunks.root(video: video, audio: audio, order: candidate.order) else { return false }
            if root == expected.root { found = candidate; return true }
            return false
        }
        if let found {
            result.state = .recomputed
            result.order = found.description
        }
        return result
    }

    private func notRecomputable(_ expected: StreamedChunksRecord, _ finding: MediaFinding) -> ChunkRecomputation {
        ChunkRecomputation(state: .notRecomputable, rootRecorded: expected.root.hex, findings: [finding])
    }
}
