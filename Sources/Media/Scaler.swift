import CAV
import CAVLoader

/// Owns a `SwsContext` converting one picture size and format to another.
final class Scaler {
    let context: OpaquePointer

    init(from src: Frame, width: Int, height: Int, format: AVPixelFormat, flags: Int32) throws(MediaError) {
        try LibAV.require()
        try Frame.checkDimensions(width: width, height: height)
        guard let c = cav_sws_getContext(Int32(src.width), Int32(src.height), src.format, Int32(width), Int32(height),
                                     format, flags, nil, nil, nil) else {
            throw .scaleFailed(detail: "no conversion from \(src.width)x\(src.height) format \(src.format.rawValue)")
        }
        context = c
    }

    deinit { cav_sws_freeContext(context) }

    /// `src` scaled into a new frame of the given size and format. SWS_AREA averages the source
    /// pixels each target pixel covers (the right filter for large reductions).
    static func scale(_ src: Frame, width: Int, height: Int, format: AVPixelFormat, flags: Int32 = exhibit_SWS_AREA) throws(MediaError) -> Frame {
        let scaler = try Scaler(from: src, width: width, height: height, format: format, flags: flags)
        let dst = try Frame(width: width, height: height, format: format)
        let rc = cav_sws_scale_frame(scaler.context, dst.pointer, src.pointer)
        if rc < 0 { throw .scaleFailed(detail: AVErrorText.describe(rc)) }
        return dst
    }
}
