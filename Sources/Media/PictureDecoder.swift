import CAV

/// Owns an `AVCodecContext` opened as a decoder for one stream, single-threaded, with
/// libavcodec's own `max_pixels` cap set to `MediaLimits.maxPixels`.
final class PictureDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    init(stream: UnsafeMutablePointer<AVStream>) throws(MediaError) {
        guard let par = stream.pointee.codecpar else { throw .noSuchStream("video") }
        if par.pointee.width > 0 || par.pointee.height > 0 {
            try Frame.checkDimensions(width: Int(par.pointee.width), height: Int(par.pointee.height))
        }
        let name = avcodec_get_name(par.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
        guard let codec = avcodec_find_decoder(par.pointee.codec_id) else { throw .codecUnavailable(name) }
        guard let ctx = avcodec_alloc_context3(codec) else { throw .decodeFailed(detail: "avcodec_alloc_context3 failed") }
        context = ctx
        var rc = avcodec_parameters_to_context(ctx, par)
        if rc < 0 { throw .decodeFailed(detail: AVErrorText.describe(rc)) }
        ctx.pointee.thread_count = 1
        ctx.pointee.max_pixels = Int64(MediaLimits.maxPixels)
        rc = avcodec_open2(ctx, codec, nil)
        if rc < 0 { throw .decodeFailed(detail: "\(name): " + AVErrorText.describe(rc)) }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Decodes the first picture of `streamIndex` (from its first keyframe on). Feeds at most
    /// `MediaLimits.maxPacketsPerPicture` packets.
    static func firstPicture(_ input: FormatInput, streamIndex: Int) throws(MediaError) -> Frame {
        guard let stream = input.stream(streamIndex) else { throw .noSuchStream("video") }
        input.keepOnly([streamIndex])
        let decoder = try PictureDecoder(stream: stream)
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
                let rc = avcodec_send_packet(decoder.context, packet.pointer)
                if rc < 0 && rc != AVErrorText.again { lastError = AVErrorText.describe(rc) }
            } else {
                _ = avcodec_send_packet(decoder.context, nil)  // drain
            }
            let rc = avcodec_receive_frame(decoder.context, frame.pointer)
            if rc >= 0 {
                try Frame.checkDimensions(width: frame.width, height: frame.height)
                return frame
            }
            if rc != AVErrorText.again && rc != AVErrorText.eof { lastError = AVErrorText.describe(rc) }
            if !more { break }
        }
        throw .decodeFailed(detail: lastError)
    }
}
