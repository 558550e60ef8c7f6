import CAV
import CAVLoader

/// libav as this process sees it: loaded by `Sources/CAVLoader` (dlopen) the first time media
/// work runs, so commands that never touch media never map its ~150 libraries (docs/media.md,
/// "Loading libav"). Every owner of a libav pointer (`MediaIO`, `FormatInput`, `Packet`,
/// `Frame`, `PictureDecoder`, `EncoderContext`, `Scaler`) and `JPEGEncoder` call `require()`
/// before their first libav call, so a missing library is a `MediaError`, never a crash.
/// `EXHIBIT_LIBAV_DIR` (read by the loader at the first load) names the directory to load them
/// from; unset or empty: the dynamic loader's search path.
public enum LibAV {
    /// Loads the libraries (once per process; later calls cost one `pthread_once`) or throws
    /// `.libraryUnavailable` with the dynamic loader's reason.
    public static func require() throws(MediaError) {
        if let reason = cav_load() { throw .libraryUnavailable(detail: String(cString: reason)) }
        _ = quiet
    }

    /// libav logs to stderr unless told otherwise (swscale's "deprecated pixel format used" for
    /// every thumbnail of a still): silenced once, whichever libav owner comes first — not only
    /// a `FormatInput`, which a still's analyses no longer open (JPEG facts from the header,
    /// decode by libjpeg-turbo).
    private static let quiet: Void = cav_av_log_set_level(AV_LOG_QUIET)

    /// True when the libraries are loaded (loads them if not yet tried).
    public static var isAvailable: Bool { cav_load() == nil }

    /// The file names loaded, from the headers built against: `libavutil.so.57`,
    /// `libswscale.so.6`, `libavcodec.so.59`, `libavformat.so.59` on Debian 12.
    public static var libraryNames: [String] {
        (0..<4).compactMap { cav_library_name(Int32($0)).map { String(cString: $0) } }
    }
}
