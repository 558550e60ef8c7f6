import Ground

extension MovieHeader {
    /// libavformat's demuxer name for every ISO BMFF / QuickTime file.
    static let containerName = "mov,mp4,m4a,3gp,3g2,mj2"

    /// The facts libavformat's `mov` demuxer states after `avformat_open_input` (FFmpeg 5.1
    /// `mov_read_mdhd`, `mov_read_stts`, `mov_build_index`, `mov_read_header`; isom.c
    /// `ff_mp4_read_dec_config_descr`), field for field:
    /// - the movie's duration: `mvhd` rescaled to microseconds (rounded to nearest);
    /// - a stream's duration: the media header's, at most the `stts` total, in seconds (edit
    ///   lists are ignored: `FormatInput` opens with `ignore_editlist`);
    /// - a stream's bit rate: its summed sample sizes × 8 × time scale ÷ that duration (integer
    ///   division);
    /// - a video's frame rate: `stts` samples × time scale ÷ `stts` duration, as a reduced fraction;
    /// - the frame count: the `stts` samples; an audio stream's bits: the sample entry's.
    /// Nil (left to libavformat) where a value would not be exact: an arithmetic overflow, a
    /// zero duration, uncompressed audio (one `stts` delta of 1).
    func facts(size: Int64) -> MediaFacts? {
        var streams: [MediaFacts.Stream] = []
        for (index, track) in tracks.enumerated() {
            guard let s = stream(index: index, track) else { return nil }
            streams.append(s)
        }
        guard let movie = Self.rescale(duration, 1_000_000, UInt64(timescale)) else { return nil }
        var seconds: Double? = movie > 0 ? Double(movie) / 1_000_000 : nil
        if seconds == nil { seconds = streams.compactMap(\.durationSeconds).max() }
        let bitRate = seconds.flatMap { MediaFacts.bitRate(bytes: size, seconds: $0) }
        return MediaFacts(container: Self.containerName, durationSeconds: seconds, bitRate: bitRate, size: size,
                          streams: streams, streamInfoProbed: false)
    }

    func stream(index: Int, _ t: Track) -> MediaFacts.Stream? {
        let table = t.table
        guard table.duration > 0 else { return nil }
        let duration = min(t.mediaDuration, table.duration)
        guard duration > 0 else { return nil }
        let (bits, o1) = table.bytes.multipliedReportingOverflow(by: 8 * UInt64(t.timescale))
        guard !o1 else { return nil }
        let bitRate = bits / duration
        var s: MediaFacts.Stream
        switch t.media {
        case .video(let codec, let width, let height):
            s = MediaFacts.Stream(index: index, type: "video", codec: codec, profile: nil)
            s.width = width
            s.height = height
            guard let (num, den) = Self.reduce(UInt64(t.timescale).multipliedReportingOverflow(by: table.samples), table.duration) else { return nil }
            s.frameRate = Double(num) / Double(den)
        case .audio(let codec, let channels, let sampleRate, let bitsPerSample, _):
            // libavformat's "old uncompressed audio" index (one delta of 1) is left to it.
            if table.timeEntries == 1 && table.firstDelta == 1 { return nil }
            s = MediaFacts.Stream(index: index, type: "audio", codec: codec, profile: nil)
            s.sampleRate = sampleRate
            s.channels = channels
            if bitsPerSample > 0 { s.bitsPerSample = bitsPerSample }
        }
        if duration > 0 { s.durationSeconds = Double(duration) * 1 / Double(t.timescale) }
        if bitRate > 0 {
            guard bitRate <= UInt64(Int64.max) else { return nil }
            s.bitRate = Int(bitRate)
        }
        guard table.samples <= UInt64(Int32.max) else { return nil }
        s.frameCount = Int(table.samples)
        return s
    }

    /// `av_rescale(a, b, c)`: a × b ÷ c rounded to the nearest, halves away from zero; nil when
    /// the result passes 2⁶³ − 1.
    static func rescale(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64? {
        guard c > 0 else { return nil }
        let p = a.multipliedFullWidth(by: b)
        let (sum, carry) = p.low.addingReportingOverflow(c / 2)
        let high = p.high + (carry ? 1 : 0)
        guard high < c else { return nil }
        let q = c.dividingFullWidth((high, sum)).quotient
        return q <= UInt64(Int64.max) ? q : nil
    }

    /// `av_reduce(num, den, INT_MAX)` when the reduced fraction fits (it is then exact); nil
    /// otherwise (libav would approximate) or on overflow.
    static func reduce(_ num: (partialValue: UInt64, overflow: Bool), _ den: UInt64) -> (Int, Int)? {
        guard !num.overflow, num.partialValue > 0, den > 0, num.partialValue <= UInt64(Int64.max), den <= UInt64(Int64.max) else { return nil }
        var a = num.partialValue, b = den
        while b != 0 { (a, b) = (b, a % b) }
        let n = num.partialValue / a, d = den / a
        guard n <= UInt64(Int32.max), d <= UInt64(Int32.max) else { return nil }
        return (Int(n), Int(d))
    }
}
