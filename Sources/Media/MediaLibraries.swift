import CAVLoader
import TurboJPEG

/// The versions of the libraries the media analyses run on, recorded with their results
/// (`IndexedRecord.analyses.libraries`): `libavcodec` (its runtime version, as the thumbnail's
/// `tool`), `libav` (the shared objects loaded, from the headers built against) and
/// `libjpeg-turbo`. Without libav: `libavcodec` is `unavailable`.
public enum MediaLibraries {
    public static var versions: [String: String] {
        var out = ["libjpeg-turbo": JPEGDecompressor.version]
        if LibAV.isAvailable {
            let v = cav_avcodec_version()
            out["libavcodec"] = "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
            out["libav"] = LibAV.libraryNames.joined(separator: " ")
        } else {
            out["libavcodec"] = "unavailable"
        }
        return out
    }
}
