import Ground

/// Random single-byte access to a byte source through one cached block: the header parsers
/// (`JPEGFrameHeader`, `CAFHeader`) read a few bytes at each segment or chunk head and jump
/// over the bodies, so a JPEG with a 1 MB C2PA manifest before its SOF costs a few small reads.
/// A read error is reported as the parser's "truncated at" offset.
final class SourceWindow {
    let source: any ByteSource
    let count: Int
    static let blockSize = 4096
    private var start = -1
    private var block: [UInt8] = []

    init(_ source: any ByteSource) {
        self.source = source
        count = Int(clamping: source.count)
    }

    /// The byte at `i`, or nil past the end or on a read error.
    func byte(_ i: Int) -> UInt8? {
        guard i >= 0, i < count else { return nil }
        if start < 0 || i < start || i >= start + block.count {
            let s = i - i % SourceWindow.blockSize
            let n = min(SourceWindow.blockSize, count - s)
            guard let b = try? source.readExactly(at: Int64(s), count: n) else { return nil }
            start = s
            block = b
        }
        return block[i - start]
    }
}

extension JPEGFrameHeader {
    /// The frame header read from a byte source (seekable), without reading skipped segments.
    init(reading source: any ByteSource) throws(JPEGHeaderError) {
        let w = SourceWindow(source)
        try self.init(count: w.count) { i throws(JPEGHeaderError) in
            guard let b = w.byte(i) else { throw .truncated(at: i) }
            return b
        }
    }

    /// libavcodec's name of the profile (`cav_avcodec_profile_name` for mjpeg), without libav.
    var profileName: String? {
        switch marker {
        case 0xC0: "Baseline"
        case 0xC1: "Sequential"
        case 0xC2: "Progressive"
        case 0xC3: "Lossless"
        default: nil
        }
    }
}
