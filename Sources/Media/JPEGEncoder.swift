import CAV
import CAVLoader

/// Encodes one picture as a baseline JPEG with libavcodec's `mjpeg` encoder (4:2:0, fixed
/// quantiser scale, no metadata).
enum JPEGEncoder {
    /// `qscale` 2 (best) … 31 (smallest).
    static func encode(_ frame: Frame, qscale: Int32 = 5) throws(MediaError) -> [UInt8] {
        try LibAV.require()
        guard let codec = cav_avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { throw .codecUnavailable("mjpeg") }
        let yuv = frame.format == AV_PIX_FMT_YUVJ420P ? frame
            : try Scaler.scale(frame, width: frame.width, height: frame.height, format: AV_PIX_FMT_YUVJ420P, flags: exhibit_SWS_BILINEAR)
        let ctx = try EncoderContext(codec: codec)
        let c = ctx.context
        c.pointee.width = Int32(yuv.width)
        c.pointee.height = Int32(yuv.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        c.pointee.time_base = AVRational(num: 1, den: 25)
        c.pointee.flags |= exhibit_AV_CODEC_FLAG_QSCALE
        c.pointee.global_quality = qscale * exhibit_FF_QP2LAMBDA
        c.pointee.thread_count = 1
        var rc = cav_avcodec_open2(c, codec, nil)
        if rc < 0 { throw .encodeFailed(detail: AVErrorText.describe(rc)) }
        yuv.pointer.pointee.quality = qscale * exhibit_FF_QP2LAMBDA
        yuv.pointer.pointee.pts = 0
        rc = cav_avcodec_send_frame(c, yuv.pointer)
        if rc < 0 { throw .encodeFailed(detail: AVErrorText.describe(rc)) }
        _ = cav_avcodec_send_frame(c, nil)
        let packet = try Packet()
        rc = cav_avcodec_receive_packet(c, packet.pointer)
        if rc < 0 { throw .encodeFailed(detail: AVErrorText.describe(rc)) }
        return [UInt8](packet.bytes)
    }

    /// A gray raster as JPEG (tests and diagnostics).
    static func encode(gray: GrayImage, qscale: Int32 = 3) throws(MediaError) -> [UInt8] {
        let f = try Frame(width: gray.width, height: gray.height, format: AV_PIX_FMT_GRAY8)
        f.setPlane0(gray.pixels, width: gray.width, height: gray.height)
        return try encode(f, qscale: qscale)
    }
}

/// Owns an `AVCodecContext` used as an encoder.
final class EncoderContext {
    let context: UnsafeMutablePointer<AVCodecContext>

    init(codec: UnsafePointer<AVCodec>) throws(MediaError) {
        try LibAV.require()
        guard let c = cav_avcodec_alloc_context3(codec) else { throw .encodeFailed(detail: "avcodec_alloc_context3 failed") }
        context = c
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        cav_avcodec_free_context(&c)
    }
}
