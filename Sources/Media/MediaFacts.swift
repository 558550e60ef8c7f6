import CAV
import CAVLoader
import Ground

/// What a media file's container and stream headers state: facts only, no judgement.
///
/// A JPEG (by name or content) and a linear-PCM CAF are read by the project's own header
/// parsers without opening libavformat at all (`MediaFacts+Headers`, issue 13); libavformat
/// reads everything else, and whatever those parsers decline, as described below.
///
/// Read from the container header without decoding (`avformat_find_stream_info` costs ~40 ms a
/// file); `streamInfoProbed` says when the header was not enough and libav decoded frames to
/// fill a missing picture size or sample rate. A JPEG's size and profile live in its SOF
/// segment, which libavformat does not read: `JPEGFrameHeader` reads it from the first packet
/// instead (no decode); only a JPEG whose header that parser declines is probed. A single
/// image has no frame rate, duration or bit rate: those stay nil for `image2` / `jpeg_pipe`.
public struct MediaFacts: Codable, Sendable, Equatable {
    /// libavformat's demuxer name: `mov,mp4,m4a,3gp,3g2,mj2`, `jpeg_pipe`, `caf`, …
    public var container: String
    /// Container duration in seconds, when stated.
    public var durationSeconds: Double?
    /// Overall bit rate in bits per second, when stated or derivable.
    public var bitRate: Int?
    /// Bytes of the source, when known.
    public var size: Int64?
    public var streams: [Stream]
    /// True when `avformat_find_stream_info` had to run (the header lacked a needed fact).
    public var streamInfoProbed: Bool

    public struct Stream: Codable, Sendable, Equatable {
        public var index: Int
        /// `video`, `audio`, `data`, `subtitle`, `attachment`, `unknown`.
        public var type: String
        /// libavcodec's codec name (`h264`, `aac`, `mjpeg`, `pcm_s16le`, …).
        public var codec: String
        public var profile: String?
        public var width: Int?
        public var height: Int?
        /// Average frame rate (frames per second) as the container states it.
        public var frameRate: Double?
        public var durationSeconds: Double?
        public var bitRate: Int?
        public var sampleRate: Int?
        public var channels: Int?
        /// Bits per coded (PCM) or raw sample, when stated.
        public var bitsPerSample: Int?
        /// Number of frames (samples) the container states for this stream.
        public var frameCount: Int?
    }

    /// Facts of the file at `path`.
    public static func read(path: String) throws(MediaError) -> MediaFacts {
        let source = try FileByteSource.media(path)
        return try read(source: source, name: path)
    }

    /// Facts of any byte source (`name` only helps format probing by extension).
    ///
    /// libav must be loadable even when the header parsers answer (`LibAV.require()`, a
    /// `pthread_once` after the first call): media evidence is all or nothing, so without libav
    /// every file's facts are `media.libavUnavailable`, whichever parser would have read them
    /// (`IndexerTests/LazyLibAVTests`), never a report with a JPEG's facts but not a video's.
    public static func read(source: any ByteSource, name: String = "") throws(MediaError) -> MediaFacts {
        try LibAV.require()
        if let facts = fromHeaders(source: source, name: name) { return facts }
        return try readWithLibAV(source: source, name: name)
    }

    /// libavformat's facts (every container; a JPEG or CAF the header parsers decline).
    static func readWithLibAV(source: any ByteSource, name: String = "") throws(MediaError) -> MediaFacts {
        let input = try FormatInput(source: source, name: name)
        let seekable = !(source is UnseekableSource)
        let size: Int64? = seekable ? source.count : nil
        if singleImageContainers.contains(input.formatName), seekable, needsProbe(input) {
            if try fillFromJPEGHeader(input) {
                return facts(of: input, size: size, probed: false, singleImage: true)
            }
            // The parser declined (arithmetic coding, DNL, damage): libav's probe from the start
            // (a new input reads the source from offset 0).
            let again = try FormatInput(source: source, name: name)
            try again.findStreamInfo()
            return facts(of: again, size: size, probed: true, singleImage: true)
        }
        var probed = false
        if needsProbe(input) {
            try input.findStreamInfo()
            probed = true
        }
        return facts(of: input, size: size, probed: probed,
                     singleImage: singleImageContainers.contains(input.formatName))
    }

    /// libavformat's demuxers for one picture: `image2` (chosen by a `.jpg` name) and
    /// `jpeg_pipe` (chosen by content). Through our custom IO either reads exactly one file.
    static let singleImageContainers: Set<String> = ["image2", "jpeg_pipe"]

    /// Reads the first packet (the whole JPEG, split by libav's mjpeg parser) and sets the stream's
    /// size and profile from its frame header. False when the header parser declines.
    static func fillFromJPEGHeader(_ input: FormatInput) throws(MediaError) -> Bool {
        guard input.streamCount == 1, let par = input.stream(0)?.pointee.codecpar,
              par.pointee.codec_id == AV_CODEC_ID_MJPEG else { return false }
        let packet = try Packet()
        guard try input.readPacket(packet) else { return false }
        let header: JPEGFrameHeader
        do { header = try JPEGFrameHeader(parsing: packet.bytes) } catch { return false }
        guard let profile = header.profile else { return false }
        try Frame.checkDimensions(width: header.width, height: header.height)
        par.pointee.width = Int32(header.width)
        par.pointee.height = Int32(header.height)
        par.pointee.profile = profile
        return true
    }

    /// A video stream without a size, or an audio stream without a rate or channel count.
    static func needsProbe(_ input: FormatInput) -> Bool {
        for i in 0..<input.streamCount {
            guard let par = input.stream(i)?.pointee.codecpar?.pointee else { continue }
            if par.codec_type == AVMEDIA_TYPE_VIDEO && (par.width <= 0 || par.height <= 0) { return true }
            if par.codec_type == AVMEDIA_TYPE_AUDIO && (par.sample_rate <= 0 || par.ch_layout.nb_channels <= 0) { return true }
        }
        return false
    }

    static func facts(of input: FormatInput, size: Int64?, probed: Bool, singleImage: Bool = false) -> MediaFacts {
        let ctx = input.context.pointee
        var streams: [Stream] = []
        for i in 0..<input.streamCount {
            guard let st = input.stream(i)?.pointee, let par = st.codecpar?.pointee else { continue }
            var s = stream(index: i, st, par)
            if singleImage {
                // image2's default 25 fps and the 0.04 s / bit-rate estimates derived from it.
                s.frameRate = nil
                s.durationSeconds = nil
                s.bitRate = nil
                s.frameCount = nil
            }
            streams.append(s)
        }
        if singleImage {
            return MediaFacts(container: input.formatName, durationSeconds: nil, bitRate: nil, size: size,
                              streams: streams, streamInfoProbed: probed)
        }
        var duration = ctx.duration > 0 && ctx.duration != exhibit_AV_NOPTS_VALUE ? Double(ctx.duration) / Double(AV_TIME_BASE) : nil
        if duration == nil { duration = streams.compactMap(\.durationSeconds).max() }
        var bitRate = ctx.bit_rate > 0 ? Int(ctx.bit_rate) : nil
        if bitRate == nil, let d = duration, let s = size { bitRate = MediaFacts.bitRate(bytes: s, seconds: d) }
        return MediaFacts(container: input.formatName, durationSeconds: duration, bitRate: bitRate, size: size,
                          streams: streams, streamInfoProbed: probed)
    }

    /// The mean bit rate of `bytes` over `seconds`, rounded; nil when the duration is not
    /// positive or the rate does not fit in an Int (a hostile header's nanosecond duration over
    /// a large file would otherwise trap in the conversion).
    static func bitRate(bytes: Int64, seconds: Double) -> Int? {
        guard seconds > 0 else { return nil }
        return Int(exactly: (Double(bytes) * 8 / seconds).rounded())
    }

    static func stream(index: Int, _ st: AVStream, _ par: AVCodecParameters) -> Stream {
        let type: String = switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: "video"
        case AVMEDIA_TYPE_AUDIO: "audio"
        case AVMEDIA_TYPE_DATA: "data"
        case AVMEDIA_TYPE_SUBTITLE: "subtitle"
        case AVMEDIA_TYPE_ATTACHMENT: "attachment"
        default: "unknown"
        }
        let codec = cav_avcodec_get_name(par.codec_id).map { String(cString: $0) } ?? "unknown"
        let profile = cav_avcodec_profile_name(par.codec_id, par.profile).map { String(cString: $0) }
        var s = Stream(index: index, type: type, codec: codec, profile: profile)
        if par.codec_type == AVMEDIA_TYPE_VIDEO {
            if par.width > 0 { s.width = Int(par.width) }
            if par.height > 0 { s.height = Int(par.height) }
            let r = st.avg_frame_rate.num > 0 && st.avg_frame_rate.den > 0 ? st.avg_frame_rate : st.r_frame_rate
            if r.num > 0, r.den > 0 { s.frameRate = Double(r.num) / Double(r.den) }
        }
        if par.codec_type == AVMEDIA_TYPE_AUDIO {
            if par.sample_rate > 0 { s.sampleRate = Int(par.sample_rate) }
            if par.ch_layout.nb_channels > 0 { s.channels = Int(par.ch_layout.nb_channels) }
            let bits = par.bits_per_coded_sample > 0 ? par.bits_per_coded_sample : cav_av_get_bits_per_sample(par.codec_id)
            if bits > 0 { s.bitsPerSample = Int(bits) }
        }
        if st.duration > 0, st.duration != exhibit_AV_NOPTS_VALUE, st.time_base.den > 0 {
            s.durationSeconds = Double(st.duration) * Double(st.time_base.num) / Double(st.time_base.den)
        }
        if par.bit_rate > 0 {
            s.bitRate = Int(par.bit_rate)
        } else if let rate = s.sampleRate, let ch = s.channels, let bits = s.bitsPerSample,
                  cav_av_get_bits_per_sample(par.codec_id) > 0 {
            // Uncompressed PCM: the rate is the format. The three come from the file's header
            // (each up to Int32.max), so their product is left out when it does not fit.
            let (perChannel, o1) = rate.multipliedReportingOverflow(by: bits)
            let (total, o2) = perChannel.multipliedReportingOverflow(by: ch)
            if !o1, !o2 { s.bitRate = total }
        }
        if st.nb_frames > 0 { s.frameCount = Int(st.nb_frames) }
        if s.durationSeconds == nil, let frames = s.frameCount, let rate = s.sampleRate, rate > 0,
           cav_av_get_bits_per_sample(par.codec_id) > 0 {
            // CAF states LPCM length as a frame count (one sample frame per packet), not a duration.
            s.durationSeconds = Double(frames) / Double(rate)
        }
        return s
    }
}

extension MediaFacts.Stream {
    init(index: Int, type: String, codec: String, profile: String?) {
        self.index = index
        self.type = type
        self.codec = codec
        self.profile = profile
    }
}
