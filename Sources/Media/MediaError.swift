import Ground

/// Why a media file could not be read, decoded or encoded. `code` is stable; tests and reports
/// compare against it. libav's own message rides in `detail` for people, never for matching.
public enum MediaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or byte source could not be opened.
    case cannotOpen(detail: String)
    /// libavformat found no container it recognises, or the header is broken (e.g. no `moov`).
    case unrecognizedContainer(detail: String)
    /// A read failed or the container is damaged past the header (truncated, corrupt).
    case corrupt(detail: String)
    /// More streams than `MediaLimits.maxStreams`.
    case tooManyStreams(Int)
    /// A packet larger than `MediaLimits.maxPacketBytes`.
    case packetTooLarge(Int)
    /// A picture larger than `MediaLimits.maxDimension` / `maxPixels`.
    case dimensionsTooLarge(width: Int, height: Int)
    /// The stream needed (video picture, audio) is not there.
    case noSuchStream(String)
    /// No decoder (or encoder) for this codec in the linked libavcodec.
    case codecUnavailable(String)
    /// The decoder rejected the data or produced no picture.
    case decodeFailed(detail: String)
    /// The encoder failed.
    case encodeFailed(detail: String)
    /// Scaling / pixel format conversion failed.
    case scaleFailed(detail: String)
    /// libav's shared libraries could not be loaded (`LibAV`); `detail` is the dynamic
    /// loader's message (`libavutil.so.57: cannot open shared object file: …`).
    case libraryUnavailable(detail: String)

    public var code: String {
        switch self {
        case .cannotOpen: StatusCode.mediaCannotOpen
        case .unrecognizedContainer: StatusCode.mediaUnrecognizedContainer
        case .corrupt: StatusCode.mediaCorrupt
        case .tooManyStreams: StatusCode.mediaTooManyStreams
        case .packetTooLarge: StatusCode.mediaPacketTooLarge
        case .dimensionsTooLarge: StatusCode.mediaDimensionsTooLarge
        case .noSuchStream: StatusCode.mediaNoSuchStream
        case .codecUnavailable: StatusCode.mediaCodecUnavailable
        case .decodeFailed: StatusCode.mediaDecodeFailed
        case .encodeFailed: StatusCode.mediaEncodeFailed
        case .scaleFailed: StatusCode.mediaScaleFailed
        case .libraryUnavailable: StatusCode.mediaLibavUnavailable
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let d), .unrecognizedContainer(let d), .corrupt(let d), .decodeFailed(let d),
             .encodeFailed(let d), .scaleFailed(let d), .libraryUnavailable(let d):
            "\(code): \(d)"
        case .tooManyStreams(let n): "\(code): \(n) streams"
        case .packetTooLarge(let n): "\(code): \(n) bytes"
        case .dimensionsTooLarge(let w, let h): "\(code): \(w)x\(h)"
        case .noSuchStream(let s), .codecUnavailable(let s): "\(code): \(s)"
        }
    }
}

/// The caps that keep hostile input from making this module allocate without bound. Everything
/// the module allocates itself is bounded by these; what libav allocates while parsing a header
/// is bounded by the header's size (libav checks box sizes against their parents).
public enum MediaLimits {
    /// Streams a container may declare (libav's own `max_streams` stops parsing at 4× this).
    public static let maxStreams = 32
    /// Largest packet (one MP4 sample, one JPEG) accepted: 64 MiB.
    public static let maxPacketBytes = 64 << 20
    /// Largest picture side decoded or scaled.
    public static let maxDimension = 16_384
    /// Largest picture area decoded (libavcodec's `max_pixels` is set to this too): a 48 MP
    /// still fits; a decoded 4:2:0 picture stays under 75 MB.
    public static let maxPixels = 50_000_000
    /// Packets fed to a decoder before giving up on getting a picture.
    public static let maxPacketsPerPicture = 600
    /// Bytes libavformat may read while probing the format.
    public static let probeBytes = 1 << 20
}
