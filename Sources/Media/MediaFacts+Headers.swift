import Ground

extension MediaFacts {
    /// Facts from the project's own header parsers, without opening libavformat (issue 13):
    /// a JPEG's frame header (`JPEGFrameHeader`), a linear-PCM CAF's header and chunk table
    /// (`CAFHeader`) and an MP4/MOV's `moov` box (`MovieHeader`: H.264/HEVC video, AAC audio).
    /// Nil when the source is none of these, is not seekable, or a parser declines:
    /// the caller asks libavformat then, as before. The facts equal libavformat's field for
    /// field (`MediaFactsHeaderTests` compares both on the same files).
    static func fromHeaders(source: any ByteSource, name: String) -> MediaFacts? {
        guard !(source is UnseekableSource), source.count >= 8,
              let head = try? source.readExactly(at: 0, count: 4) else { return nil }
        if head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF, let container = jpegContainer(name: name) {
            guard let h = try? JPEGFrameHeader(reading: source), let profile = h.profileName,
                  (try? Frame.checkDimensions(width: h.width, height: h.height)) != nil else { return nil }
            var s = Stream(index: 0, type: "video", codec: "mjpeg", profile: profile)
            s.width = h.width
            s.height = h.height
            return MediaFacts(container: container, durationSeconds: nil, bitRate: nil, size: source.count,
                              streams: [s], streamInfoProbed: false)
        }
        if head == [0x63, 0x61, 0x66, 0x66] {  // "caff"
            guard let c = try? CAFHeader(reading: source), let codec = c.codec else { return nil }
            var s = Stream(index: 0, type: "audio", codec: codec, profile: nil)
            let rate = Int(c.sampleRate)  // libavformat truncates the f64 rate the same way
            s.sampleRate = rate
            s.channels = c.channels
            s.bitsPerSample = c.bitsPerChannel
            let (perChannel, o1) = rate.multipliedReportingOverflow(by: c.bitsPerChannel)
            let (total, o2) = perChannel.multipliedReportingOverflow(by: c.channels)
            if !o1, !o2 { s.bitRate = total }
            if let frames = c.frameCount, frames > 0 {
                s.frameCount = Int(frames)
                s.durationSeconds = Double(frames) / Double(rate)
            }
            let duration = s.durationSeconds
            let bitRate = duration.flatMap { MediaFacts.bitRate(bytes: source.count, seconds: $0) }
            return MediaFacts(container: "caf", durationSeconds: duration, bitRate: bitRate, size: source.count,
                              streams: [s], streamInfoProbed: false)
        }
        if source.count >= 12, isMovie(name: name),
           let type = try? source.readExactly(at: 4, count: 4), type == Array("ftyp".utf8) {
            return try? MovieHeader(reading: source).facts(size: source.count)
        }
        return nil
    }

    /// Names libavformat's probe leaves to the `mov` demuxer by content: none (no name), or an
    /// MP4/MOV extension. Any other name is left to libavformat.
    static func isMovie(name: String) -> Bool {
        if name.isEmpty { return true }
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: ".") else { return false }
        return ["mp4", "m4v", "mov"].contains(last[last.index(after: dot)...].lowercased())
    }

    /// The demuxer libavformat picks for a JPEG: `image2` by a JPEG file name's extension,
    /// `jpeg_pipe` by content when there is no name; nil for any other name (left to libav).
    static func jpegContainer(name: String) -> String? {
        if name.isEmpty { return "jpeg_pipe" }
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: ".") else { return nil }
        return ["jpg", "jpeg"].contains(last[last.index(after: dot)...].lowercased()) ? "image2" : nil
    }
}
