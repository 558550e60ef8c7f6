import CAV
import CAVLoader
import CaptureFormat
import Ground

/// One track's streamed-chunk hashes as recomputed from the file, with when each chunk's last
/// byte was captured.
public struct TrackChunkTimeline: Sendable, Equatable {
    public var track: StreamedChunks.Track
    /// Chunk hashes in chunk-index order.
    public var digests: [ContentID]
    /// Per chunk: end time (dts + duration, seconds) of the sample holding its last byte.
    public var completionTimes: [Double]
    /// Elementary-stream bytes read.
    public var byteCount: Int64
    /// Bytes the container's sample table announces for this track (nil when it has none).
    public var announcedByteCount: Int64?
    /// Samples (packets) read.
    public var sampleCount: Int
    /// Samples the container header states for this track (MP4: `stsz` count), when stated.
    public var announcedSampleCount: Int?
}

/// A problem met while reading a track's bytes; the reading goes on or stops, and says so.
public struct MediaFinding: Codable, Sendable, Equatable {
    /// Stable code: `media.truncated`, `media.corrupt`, `media.packetTooLarge`, `media.noTimestamp`, …
    public var code: String
    public var detail: String
    public init(code: String, detail: String) {
        self.code = code
        self.detail = detail
    }
}

/// Reads each track's elementary-stream bytes through libavformat and cuts them into streamed
/// chunks (capture-format §7): for MP4, each track's samples in decode order exactly as stored
/// in `mdat` (parsers, timestamp fill-in and edit lists off; no bitstream filter), fed to one
/// `TrackChunkHasher` per track as packets arrive in file order. Memory is constant in the
/// file size apart from 40 bytes per chunk.
public enum ElementaryStreams {
    public struct Result: Sendable, Equatable {
        public var video: TrackChunkTimeline?
        public var audio: TrackChunkTimeline?
        public var findings: [MediaFinding]
        /// Bytes libavformat read from the source (container included).
        public var sourceBytesRead: Int64
    }

    public static func chunks(path: String, chunkSize: Int = StreamedChunks.chunkSize) throws(MediaError) -> Result {
        try chunks(source: try FileByteSource.media(path), name: path, chunkSize: chunkSize)
    }

    /// Throws only when the container cannot be opened; damage past the header ends the read
    /// with a finding and the chunks so far.
    public static func chunks(source: any ByteSource, name: String = "", chunkSize: Int = StreamedChunks.chunkSize) throws(MediaError) -> Result {
        let input = try FormatInput(source: source, name: name, raw: true)
        var readers: [Int: TrackReader] = [:]
        if let v = input.firstStream(of: AVMEDIA_TYPE_VIDEO), let st = input.stream(v) {
            readers[v] = TrackReader(track: .video, stream: st, chunkSize: chunkSize)
        }
        if let a = input.firstStream(of: AVMEDIA_TYPE_AUDIO), let st = input.stream(a) {
            readers[a] = TrackReader(track: .audio, stream: st, chunkSize: chunkSize)
        }
        input.keepOnly(Set(readers.keys))
        var findings: [MediaFinding] = []
        let packet = try Packet()
        reading: while true {
            do {
                guard try input.readPacket(packet) else { break reading }
            } catch {
                findings.append(MediaFinding(code: error.code, detail: error.description))
                break reading
            }
            guard let reader = readers[packet.streamIndex] else { continue }
            if packet.isCorrupt {
                findings.append(MediaFinding(code: StatusCode.mediaCorrupt, detail: "\(reader.track.rawValue) sample \(reader.sampleCount) flagged corrupt"))
            }
            reader.consume(packet, findings: &findings)
        }
        var result = Result(video: nil, audio: nil, findings: findings, sourceBytesRead: input.io.bytesRead)
        for reader in readers.values {
            let timeline = reader.finish()
            if let announced = timeline.announcedByteCount, timeline.byteCount < announced {
                result.findings.append(MediaFinding(code: StatusCode.mediaTruncated,
                    detail: "\(timeline.track.rawValue): \(timeline.byteCount) of \(announced) sample-table bytes read"))
            }
            // libavformat stops indexing a track at a sample it refuses (e.g. a size beyond any
            // file): the header's own count says so.
            if let stated = timeline.announcedSampleCount, timeline.sampleCount != stated {
                result.findings.append(MediaFinding(code: StatusCode.mediaSampleCountMismatch,
                    detail: "\(timeline.track.rawValue): \(timeline.sampleCount) of \(stated) samples read"))
            }
            switch timeline.track {
            case .video: result.video = timeline
            case .audio: result.audio = timeline
            }
        }
        return result
    }
}

/// Feeds one track's packets to its chunk hasher and keeps per-chunk completion times.
private final class TrackReader {
    let track: StreamedChunks.Track
    let hasher: TrackChunkHasher
    let timeBase: AVRational
    let announced: Int64?
    let announcedSamples: Int?
    var digests: [ContentID] = []
    var times: [Double] = []
    var bytes: Int64 = 0
    var sampleCount = 0
    var lastEnd: Double = 0
    var warnedTimestamp = false

    init(track: StreamedChunks.Track, stream: UnsafeMutablePointer<AVStream>, chunkSize: Int) {
        self.track = track
        self.hasher = TrackChunkHasher(track: track, chunkSize: chunkSize)
        self.timeBase = stream.pointee.time_base
        var total: Int64 = 0
        let n = cav_avformat_index_get_entries_count(stream)
        for i in 0..<n {
            if let e = cav_avformat_index_get_entry(stream, i) { total += Int64(e.pointee.size) }
        }
        self.announced = n > 0 ? total : nil
        self.announcedSamples = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
    }

    func consume(_ packet: Packet, findings: inout [MediaFinding]) {
        let p = packet.pointer.pointee
        let start = p.dts != exhibit_AV_NOPTS_VALUE ? p.dts : p.pts
        if start == exhibit_AV_NOPTS_VALUE || timeBase.den <= 0 {
            if !warnedTimestamp {
                findings.append(MediaFinding(code: StatusCode.mediaNoTimestamp, detail: "\(track.rawValue) sample \(sampleCount) has no timestamp"))
                warnedTimestamp = true
            }
        } else {
            lastEnd = Double(start + max(p.duration, 0)) * Double(timeBase.num) / Double(timeBase.den)
        }
        for chunk in hasher.append(packet.bytes) {
            digests.append(chunk.digest)
            times.append(lastEnd)
        }
        bytes += Int64(packet.size)
        sampleCount += 1
    }

    func finish() -> TrackChunkTimeline {
        if let last = hasher.finish() {
            digests.append(last.digest)
            times.append(lastEnd)
        }
        return TrackChunkTimeline(track: track, digests: digests, completionTimes: times, byteCount: bytes,
                                  announcedByteCount: announced, sampleCount: sampleCount,
                                  announcedSampleCount: announcedSamples)
    }
}
