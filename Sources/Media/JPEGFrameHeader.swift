import Ground

/// The frame header (SOFn, ITU-T T.81 §B.2.2) of a JPEG: what `MediaFacts` reports for a still
/// without decoding it. Read by walking the marker segments from SOI up to the first SOFn; every
/// segment length is checked against the bytes present, and the walk is capped.
struct JPEGFrameHeader: Equatable, Sendable {
    /// The SOF marker's second byte: 0xC0 baseline, 0xC1 extended, 0xC2 progressive, 0xC3 lossless.
    var marker: UInt8
    var precision: Int
    var width: Int
    var height: Int
    var components: Int

    /// libavcodec's mjpeg profile for this marker (`FF_PROFILE_MJPEG_HUFFMAN_*` equal the marker
    /// byte); nil for the arithmetic-coded and hierarchical SOFs, which we leave to the decoder.
    var profile: Int32? { (0xC0...0xC3).contains(marker) ? Int32(marker) : nil }

    /// Marker segments walked before giving up (a C2PA manifest adds a few APP11 segments).
    static let maxSegments = 4096

    init(marker: UInt8, precision: Int, width: Int, height: Int, components: Int) {
        self.marker = marker
        self.precision = precision
        self.width = width
        self.height = height
        self.components = components
    }

    /// Parses the frame header from the start of a JPEG (bytes after the SOF are not needed).
    init(parsing bytes: UnsafeRawBufferPointer) throws(JPEGHeaderError) {
        try self.init(count: bytes.count) { i throws(JPEGHeaderError) in
            guard i >= 0, i < bytes.count else { throw .truncated(at: i) }
            return bytes[i]
        }
    }

    /// The walk over `count` bytes reached through `byte` (memory, or `SourceWindow` over a
    /// byte source, which reads only the segment headers and the SOF, never a skipped body).
    init(count: Int, byte: (Int) throws(JPEGHeaderError) -> UInt8) throws(JPEGHeaderError) {
        func u16(_ i: Int) throws(JPEGHeaderError) -> Int { Int(try byte(i)) << 8 | Int(try byte(i + 1)) }
        guard count >= 2, try byte(0) == 0xFF, try byte(1) == 0xD8 else { throw .notJPEG }
        var pos = 2
        for _ in 0..<JPEGFrameHeader.maxSegments {
            guard try byte(pos) == 0xFF else { throw .badMarker(at: pos) }
            while try byte(pos) == 0xFF { pos += 1 }  // fill bytes (B.1.1.2)
            let m = try byte(pos)
            pos += 1
            switch m {
            case 0x01, 0xD0...0xD7:
                continue  // TEM, RSTn: no length
            case 0xD9, 0xDA, 0xD8, 0x00:
                throw .noFrameHeader(at: pos - 1)
            default:
                break
            }
            let length = try u16(pos)
            guard length >= 2, pos + length <= count else {
                throw length < 2 ? .badSegmentLength(at: pos) : .truncated(at: pos + length)
            }
            if (0xC0...0xCF).contains(m) && m != 0xC4 && m != 0xC8 && m != 0xCC {
                let n = Int(try byte(pos + 7))
                guard length == 8 + 3 * n, n > 0 else { throw .badSegmentLength(at: pos) }
                let h = try u16(pos + 3), w = try u16(pos + 5)
                // Height 0 defers to a DNL segment after the first scan: leave that to the decoder.
                guard h > 0, w > 0 else { throw .sizeNotInFrameHeader }
                self.init(marker: m, precision: Int(try byte(pos + 2)), width: w, height: h, components: n)
                return
            }
            pos += length
        }
        throw .tooManySegments
    }

    init(parsing bytes: [UInt8]) throws(JPEGHeaderError) {
        let r = bytes.withUnsafeBytes { raw -> Result<JPEGFrameHeader, JPEGHeaderError> in
            do throws(JPEGHeaderError) { return .success(try JPEGFrameHeader(parsing: raw)) } catch { return .failure(error) }
        }
        self = try r.get()
    }
}

/// Why a JPEG's frame header could not be read without the decoder. Callers fall back to
/// libav's probing; `code` is stable.
enum JPEGHeaderError: Error, Equatable, Sendable {
    case notJPEG
    case truncated(at: Int)
    case badMarker(at: Int)
    case badSegmentLength(at: Int)
    case noFrameHeader(at: Int)
    case sizeNotInFrameHeader
    case tooManySegments

    var code: String {
        switch self {
        case .notJPEG: StatusCode.jpegHeaderNotJPEG
        case .truncated: StatusCode.jpegHeaderTruncated
        case .badMarker: StatusCode.jpegHeaderBadMarker
        case .badSegmentLength: StatusCode.jpegHeaderBadSegmentLength
        case .noFrameHeader: StatusCode.jpegHeaderNoFrameHeader
        case .sizeNotInFrameHeader: StatusCode.jpegHeaderSizeNotInFrameHeader
        case .tooManySegments: StatusCode.jpegHeaderTooManySegments
        }
    }
}
