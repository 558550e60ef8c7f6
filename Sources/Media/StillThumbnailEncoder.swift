import CAV
import TurboJPEG

/// Encodes the thumbnail of a JPEG still that libjpeg-turbo decoded (issue 13, session 9) with
/// libjpeg-turbo's own encoder (`tjCompressFromYUVPlanes`, 4:2:0, quality `quality`) instead of
/// libavcodec's `mjpeg`: the planes go in as they are, no colour conversion. A video's first
/// picture and a still libjpeg-turbo calls damaged keep libavcodec's decoder and encoder
/// (`JPEGEncoder`, `Thumbnail.libavTool`).
enum StillThumbnailEncoder {
    /// libjpeg-turbo's quality (its scaled standard quantisation tables). Chosen against
    /// libavcodec's `mjpeg` at qscale 5 on the same planes (docs/media.md §5): the lowest quality
    /// whose luma is as close to the decoded still (PSNR within 0.1 dB on the synth stills; q=70:
    /// 1.7 dB worse). Its files are ~1.3× libavcodec's (standard Huffman tables, no dead zone).
    static let quality = 80

    /// What `Thumbnail.tool` records for these thumbnails: the library's version from the headers
    /// built against (the TurboJPEG 2.x API has no runtime version call), the function, the quality.
    static var tool: String { "libjpeg-turbo \(JPEGDecompressor.version) tjCompressFromYUVPlanes q=\(quality)" }

    /// Planes as libjpeg-turbo decoded them (already the thumbnail's size and 4:2:0).
    static func encode(_ planes: JPEGPlanes) throws(MediaError) -> [UInt8] {
        try run { c throws(TurboJPEGError) in try c.compress(planes, quality: quality) }
    }

    /// A YUVJ420P frame (libswscale's output at the thumbnail's size).
    static func encode(_ frame: Frame) throws(MediaError) -> [UInt8] {
        guard frame.format == AV_PIX_FMT_YUVJ420P else { throw .encodeFailed(detail: "frame format \(frame.format.rawValue) is not yuvj420p") }
        let f = frame.pointer.pointee
        let w = frame.width, h = frame.height
        let strides = [f.linesize.0, f.linesize.1, f.linesize.2].map(Int.init)
        // av_frame_get_buffer gives each plane at least its stride × its rows (rows rounded up).
        let rows = [h, (h + 1) / 2, (h + 1) / 2]
        guard let y = f.data.0, let cb = f.data.1, let cr = f.data.2 else { throw .encodeFailed(detail: "frame without planes") }
        return try run { c throws(TurboJPEGError) in
            try c.compress(planes: [UnsafePointer(y), UnsafePointer(cb), UnsafePointer(cr)],
                           counts: zip(strides, rows).map { $0 * $1 }, strides: strides, width: w, height: h,
                           subsampling: .s420, quality: quality)
        }
    }

    private static func run(_ body: (JPEGCompressor) throws(TurboJPEGError) -> [UInt8]) throws(MediaError) -> [UInt8] {
        do throws(TurboJPEGError) { return try body(try JPEGCompressor()) } catch {
            throw .encodeFailed(detail: error.description)
        }
    }
}
