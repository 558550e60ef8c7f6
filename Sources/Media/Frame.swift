import CAV
import CAVLoader

/// Owns one `AVFrame` (a decoded or to-be-encoded picture).
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        try LibAV.require()
        guard let f = cav_av_frame_alloc() else { throw .decodeFailed(detail: "av_frame_alloc failed") }
        pointer = f
    }

    /// A frame with its own buffers for `width`×`height` in `format`.
    convenience init(width: Int, height: Int, format: AVPixelFormat) throws(MediaError) {
        try Frame.checkDimensions(width: width, height: height)
        try self.init()
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = format.rawValue
        let rc = cav_av_frame_get_buffer(pointer, 0)
        if rc < 0 { throw .scaleFailed(detail: "av_frame_get_buffer: " + AVErrorText.describe(rc)) }
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        cav_av_frame_free(&f)
    }

    var width: Int { Int(pointer.pointee.width) }
    var height: Int { Int(pointer.pointee.height) }
    var format: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }

    /// Rejects pictures beyond `MediaLimits` before anything is allocated for them.
    static func checkDimensions(width: Int, height: Int) throws(MediaError) {
        guard width > 0, height > 0, width <= MediaLimits.maxDimension, height <= MediaLimits.maxDimension,
              width * height <= MediaLimits.maxPixels else {
            throw .dimensionsTooLarge(width: width, height: height)
        }
    }

    /// The first plane's rows, `width` bytes each (for 8-bit gray frames).
    func plane0(width: Int, height: Int) -> [UInt8] {
        let stride = Int(pointer.pointee.linesize.0)
        guard let base = pointer.pointee.data.0, stride >= width else { return [] }
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBytes { dst in
            for y in 0..<height {
                dst.baseAddress?.advanced(by: y * width).copyMemory(from: base.advanced(by: y * stride), byteCount: width)
            }
        }
        return out
    }

    /// Writes `pixels` (rows of `width` bytes) into the first plane.
    func setPlane0(_ pixels: [UInt8], width: Int, height: Int) {
        let stride = Int(pointer.pointee.linesize.0)
        guard let base = pointer.pointee.data.0, stride >= width, pixels.count >= width * height else { return }
        pixels.withUnsafeBytes { src in
            for y in 0..<height {
                if let s = src.baseAddress { base.advanced(by: y * stride).update(from: s.advanced(by: y * width).assumingMemoryBound(to: UInt8.self), count: width) }
            }
        }
    }
}
