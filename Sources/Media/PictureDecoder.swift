import CAV
import CAVLoader

/// Owns an `AVCodecContext` opened as a decoder for one stream, single-threaded, with
/// libavcodec's own `max_pixels` cap set to `MediaLimits.maxPixels`. `lowres` k (mjpeg: up to 3)
/// makes the decoder scale by 2^-k in the DCT domain: an 8×8 block becomes (8/2^k)² pixels.
final class PictureDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    init(stream: UnsafeMutablePointer<AVStream>, lowres: Int = 0) throws(MediaError) {
        try LibAV.require()
        guard let par = stream.pointee.codecpar else { throw .noSuchStream("video") }
        if par.pointee.width > 0 || par.pointee.height > 0 {
            try Frame.checkDimensions(width: Int(par.pointee.width), height: Int(par.pointee.height))
        }
        let name = cav_avcodec_get_name(par.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
        guard let codec = cav_avcodec_find_decoder(par.pointee.codec_id) else { throw .codecUnavailable(name) }
        guard let ctx = cav_avcodec_alloc_context3(codec) else { throw .decodeFailed(detail: "avcodec_alloc_context3 failed") }
        context = ctx
        var rc = cav_avcodec_parameters_to_context(ctx, par)
        if rc < 0 { throw .decodeFailed(detail: AVErrorText.describe(rc)) }
        ctx.pointee.thread_count = 1
        ctx.pointee.max_pixels = Int64(MediaLimits.maxPixels)
        ctx.pointee.lowres = Int32(max(0, min(lowres, Int(codec.pointee.max_lowres))))
        rc = cav_avcodec_open2(ctx, codec, nil)
        if rc < 0 { throw .decodeFailed(detail: "\(name): " + AVErrorText.describe(rc)) }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        cav_avcodec_free_context(&c)
    }

    /// The largest lowres k (≤ `maxLowres`) that still leaves a `width`×`height` picture at
    /// least `target` in both sides (libavcodec rounds the reduced sides up).
    static func lowres(width: Int, height: Int, atLeast target: (width: Int, height: Int), maxLowres: Int = 3) -> Int {
        var k = 0
        while k < maxLowres, (width + (1 << (k + 1)) - 1) >> (k + 1) >= target.width,
              (height + (1 << (k + 1)) - 1) >> (k + 1) >= target.height {
            k += 1
        }
        return k
    }

    /// A decoded first picture and the full size of the coded picture (the frame is smaller
    /// when decoded at a lowres reduction).
    struct Picture {
        let frame: Frame
        let sourceWidth: Int
        let sourceHeight: Int
    }

    /// The smallest size a caller needs from a source of the given full size (nil: no reduction).
    typealias SizeNeeded = (_ width: Int, _ height: Int) -> (width: Int, height: Int)?

    /// Decodes the first picture of `streamIndex` (from its first keyframe on). Feeds at most
    /// `MediaLimits.maxPacketsPerPicture` packets. With `needed`, a JPEG is decoded at the
    /// largest lowres reduction (≤ `maxLowres`) that keeps both sides at least that size (the
    /// full size comes from the first packet's frame header; no reduction when it cannot be read).
    static func firstPicture(_ input: FormatInput, streamIndex: Int, maxLowres: Int = 3,
                             needed: SizeNeeded? = nil) throws(MediaError) -> Picture {
        guard let stream = input.stream(streamIndex) else { throw .noSuchStream("video") }
        input.keepOnly([streamIndex])
        var decoder: PictureDecoder?
        var lowres = 0
        let packet = try Packet()
        let frame = try Frame()
        var fed = 0
        var started = false
        var lastError = "no picture"
        while fed < MediaLimits.maxPacketsPerPicture {
            let more: Bool
            do { more = try input.readPacket(packet) } catch {
                if case .packetTooLarge = error { throw error }
                lastError = error.description
                more = false
            }
            if more {
                guard packet.streamIndex == streamIndex else { continue }
                if !started && !packet.isKey { continue }
                started = true
                fed += 1
                if decoder == nil {
                    if let needed, stream.pointee.codecpar?.pointee.codec_id == AV_CODEC_ID_MJPEG,
                       let header = try? JPEGFrameHeader(parsing: packet.bytes),
                       let target = needed(header.width, header.height) {
                        lowres = PictureDecoder.lowres(width: header.width, height: header.height,
                                                       atLeast: target, maxLowres: maxLowres)
                    }
                    decoder = try PictureDecoder(stream: stream, lowres: lowres)
                }
                guard let decoder else { continue }
                let rc = cav_avcodec_send_packet(decoder.context, packet.pointer)
                if rc < 0 && rc != AVErrorText.again { lastError = AVErrorText.describe(rc) }
            } else if let decoder {
                _ = cav_avcodec_send_packet(decoder.context, nil)  // drain
            }
            guard let decoder else { break }
            let rc = cav_avcodec_receive_frame(decoder.context, frame.pointer)
            if rc >= 0 {
                let ctx = decoder.context.pointee
                let full = lowres > 0 && ctx.coded_width > 0 && ctx.coded_height > 0
                    ? (Int(ctx.coded_width), Int(ctx.coded_height)) : (frame.width, frame.height)
                try Frame.checkDimensions(width: full.0, height: full.1)
                return Picture(frame: frame, sourceWidth: full.0, sourceHeight: full.1)
            }
            if rc != AVErrorText.again && rc != AVErrorText.eof { lastError = AVErrorText.describe(rc) }
            if !more { break }
        }
        throw .decodeFailed(detail: lastError)
    }
}
