import Ground

/// The facts of a Core Audio Format file (Apple's CAF specification) read from its own header
/// and chunk table, without libavformat: what `MediaFacts` reports for the audio master.
///
///     file   = "caff" version:u16 (= 1) flags:u16 chunk*
///     chunk  = type:4cc size:i64 body[size]          (big-endian; size −1 only for a last 'data')
///     desc   = sampleRate:f64 formatID:4cc formatFlags:u32 bytesPerPacket:u32
///              framesPerPacket:u32 channelsPerFrame:u32 bitsPerChannel:u32   (the first chunk, 32 bytes)
///     data   = editCount:u32 audio[size − 4]
///
/// Only linear PCM with a constant packet size (`lpcm`, bytesPerPacket and framesPerPacket > 0)
/// is described here: every other format, and any header this reader declines, is left to
/// libavformat (`CAFHeaderError`). Every chunk size is checked against the bytes present.
struct CAFHeader: Equatable, Sendable {
    var sampleRate: Double
    var formatFlags: UInt32
    var bytesPerPacket: Int
    var framesPerPacket: Int
    var channels: Int
    var bitsPerChannel: Int
    /// Audio bytes (the data chunk's size minus its edit count).
    var dataBytes: Int64

    /// Chunks walked before giving up.
    static let maxChunks = 1024

    init(reading source: any ByteSource) throws(CAFHeaderError) {
        let w = SourceWindow(source)
        func byte(_ i: Int) throws(CAFHeaderError) -> UInt8 {
            guard let b = w.byte(i) else { throw .truncated(at: i) }
            return b
        }
        func u32(_ i: Int) throws(CAFHeaderError) -> UInt32 {
            var v: UInt32 = 0
            for k in 0..<4 { v = v << 8 | UInt32(try byte(i + k)) }
            return v
        }
        func u64(_ i: Int) throws(CAFHeaderError) -> UInt64 { UInt64(try u32(i)) << 32 | UInt64(try u32(i + 4)) }
        guard w.count >= 8, try u32(0) == 0x6361_6666 /* caff */, try u32(4) >> 16 == 1 else { throw .notCAF }
        // The description: first, exactly 32 bytes.
        guard try u32(8) == 0x6465_7363 /* desc */ else { throw .noDescription }
        guard try u64(12) == 32 else { throw .badChunkSize(at: 12) }
        let rate = Double(bitPattern: try u64(20))
        guard try u32(28) == 0x6C70_636D /* lpcm */ else { throw .unsupportedFormat }
        sampleRate = rate
        formatFlags = try u32(32)
        bytesPerPacket = Int(try u32(36))
        framesPerPacket = Int(try u32(40))
        channels = Int(try u32(44))
        bitsPerChannel = Int(try u32(48))
        guard rate.isFinite, rate >= 1, rate <= Double(Int32.max), bytesPerPacket > 0, framesPerPacket > 0,
              channels > 0, channels <= 64, bitsPerChannel > 0, bitsPerChannel <= 64 else { throw .unsupportedFormat }
        var pos = 52
        var data: Int64?
        for _ in 0..<CAFHeader.maxChunks where pos < w.count {
            let type = try u32(pos)
            let size = Int64(bitPattern: try u64(pos + 4))
            let body = pos + 12
            // A size of −1 (unknown, to the end) is left to libavformat; so is any size past the end.
            guard size >= 0, size <= Int64(w.count - body) else { throw .badChunkSize(at: pos + 4) }
            if type == 0x6461_7461 /* data */ {
                guard data == nil, size >= 4 else { throw .badChunkSize(at: pos + 4) }
                data = size - 4
            }
            pos = body + Int(size)
        }
        guard pos >= w.count else { throw .tooManyChunks }
        guard let data else { throw .noData }
        dataBytes = data
    }

    /// libavcodec's codec for this PCM (`ff_mov_get_lpcm_codec_id` on CAF's flags: bit 0 float,
    /// bit 1 little-endian; CAF integer PCM is signed); nil for a width libavcodec has no PCM of.
    var codec: String? {
        let isFloat = formatFlags & 1 != 0, little = formatFlags & 2 != 0
        let bytes = (bitsPerChannel + 7) >> 3
        let e = little ? "le" : "be"
        if isFloat { return bytes == 4 || bytes == 8 ? "pcm_f\(bytes * 8)\(e)" : nil }
        switch bytes {
        case 1: return "pcm_s8"
        case 2, 3, 4, 8: return "pcm_s\(bytes * 8)\(e)"
        default: return nil
        }
    }

    /// Sample frames in the data chunk, as libavformat counts them (whole packets only); nil
    /// when the count does not fit in 64 bits (a hostile header: 2 GB of one-byte packets of
    /// 2³² frames each).
    var frameCount: Int64? {
        let (n, overflow) = (dataBytes / Int64(bytesPerPacket)).multipliedReportingOverflow(by: Int64(framesPerPacket))
        return overflow ? nil : n
    }
}

/// Why `CAFHeader` declined; `MediaFacts` then asks libavformat. `code` is stable.
enum CAFHeaderError: Error, Equatable, Sendable {
    case notCAF
    case truncated(at: Int)
    case noDescription
    case badChunkSize(at: Int)
    case unsupportedFormat
    case noData
    case tooManyChunks

    var code: String {
        switch self {
        case .notCAF: StatusCode.cafHeaderNotCAF
        case .truncated: StatusCode.cafHeaderTruncated
        case .noDescription: StatusCode.cafHeaderNoDescription
        case .badChunkSize: StatusCode.cafHeaderBadChunkSize
        case .unsupportedFormat: StatusCode.cafHeaderUnsupportedFormat
        case .noData: StatusCode.cafHeaderNoData
        case .tooManyChunks: StatusCode.cafHeaderTooManyChunks
        }
    }
}
