import CAV
import CAVLoader
import Ground

/// Owns an opened `AVFormatContext` reading a `any ByteSource` through `MediaIO`.
///
/// Demuxer options fixed here: `max_streams` = 4 × `MediaLimits.maxStreams`, a 1 MiB probe, and
/// for MP4 `ignore_editlist` (the streamed-chunk definition reads the sample tables as
/// stored, edit lists ignored). `raw` turns libav's parsers and timestamp fill-in off, so
/// packets are the container's samples byte for byte.
final class FormatInput {
    let context: UnsafeMutablePointer<AVFormatContext>
    let io: MediaIO

    init(source: any ByteSource, name: String, raw: Bool = false) throws(MediaError) {
        try LibAV.require()
        let io = try MediaIO(source: source)
        guard let ctx = cav_avformat_alloc_context() else { throw .cannotOpen(detail: "avformat_alloc_context failed") }
        ctx.pointee.pb = io.context
        ctx.pointee.flags |= exhibit_AVFMT_FLAG_CUSTOM_IO
        if raw { ctx.pointee.flags |= exhibit_AVFMT_FLAG_NOPARSE | exhibit_AVFMT_FLAG_NOFILLIN }
        ctx.pointee.probesize = Int64(MediaLimits.probeBytes)
        var options: OpaquePointer?
        cav_av_dict_set(&options, "max_streams", "\(MediaLimits.maxStreams * 4)", 0)
        cav_av_dict_set(&options, "ignore_editlist", "1", 0)
        var p: UnsafeMutablePointer<AVFormatContext>? = ctx
        let rc = cav_avformat_open_input(&p, name, nil, &options)
        cav_av_dict_free(&options)
        guard rc >= 0, let opened = p else {
            // avformat_open_input frees the context on failure; the custom IO stays ours.
            if let e = io.lastError { throw e }
            throw .unrecognizedContainer(detail: AVErrorText.describe(rc))
        }
        self.context = opened
        self.io = io
        let n = Int(opened.pointee.nb_streams)
        guard n <= MediaLimits.maxStreams else { throw .tooManyStreams(n) }
    }

    deinit {
        var p: UnsafeMutablePointer<AVFormatContext>? = context
        cav_avformat_close_input(&p)
    }

    var streamCount: Int { Int(context.pointee.nb_streams) }

    func stream(_ i: Int) -> UnsafeMutablePointer<AVStream>? {
        guard i >= 0, i < streamCount, let streams = context.pointee.streams else { return nil }
        return streams[i]
    }

    /// The short name of the demuxer (`mov,mp4,m4a,3gp,3g2,mj2`, `jpeg_pipe`, `caf`).
    var formatName: String {
        guard let f = context.pointee.iformat, let n = f.pointee.name else { return "" }
        return String(cString: n)
    }

    /// Runs `avformat_find_stream_info` (decodes frames; used only when the header lacks facts).
    /// The decoders it opens get the same `max_pixels` cap and one thread.
    func findStreamInfo() throws(MediaError) {
        var options = [OpaquePointer?](repeating: nil, count: streamCount)
        for i in options.indices {
            cav_av_dict_set(&options[i], "max_pixels", "\(MediaLimits.maxPixels)", 0)
            cav_av_dict_set(&options[i], "threads", "1", 0)
        }
        let rc = options.withUnsafeMutableBufferPointer { cav_avformat_find_stream_info(context, $0.baseAddress) }
        for i in options.indices { cav_av_dict_free(&options[i]) }
        if rc < 0 { throw .corrupt(detail: "find_stream_info: " + AVErrorText.describe(rc)) }
    }

    /// Discards every stream not in `keep`, so the demuxer skips their packets.
    func keepOnly(_ keep: Set<Int>) {
        for i in 0..<streamCount where !keep.contains(i) { stream(i)?.pointee.discard = AVDISCARD_ALL }
    }

    /// The first stream of a media type, if any.
    func firstStream(of type: AVMediaType) -> Int? {
        (0..<streamCount).first { stream($0)?.pointee.codecpar?.pointee.codec_type == type }
    }

    /// Reads the next packet into `packet`; false at end of input. Packets over
    /// `MediaLimits.maxPacketBytes` throw.
    func readPacket(_ packet: Packet) throws(MediaError) -> Bool {
        cav_av_packet_unref(packet.pointer)
        let rc = cav_av_read_frame(context, packet.pointer)
        if rc == AVErrorText.eof { return false }
        if rc < 0 {
            if let e = io.lastError { throw e }
            throw .corrupt(detail: AVErrorText.describe(rc))
        }
        let size = Int(packet.pointer.pointee.size)
        guard size <= MediaLimits.maxPacketBytes else { throw .packetTooLarge(size) }
        return true
    }
}

/// Owns one `AVPacket`.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        try LibAV.require()
        guard let p = cav_av_packet_alloc() else { throw .cannotOpen(detail: "av_packet_alloc failed") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        cav_av_packet_free(&p)
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }
    var size: Int { Int(pointer.pointee.size) }
    var isKey: Bool { pointer.pointee.flags & exhibit_AV_PKT_FLAG_KEY != 0 }
    var isCorrupt: Bool { pointer.pointee.flags & exhibit_AV_PKT_FLAG_CORRUPT != 0 }

    /// The packet's bytes (valid until the next read).
    var bytes: UnsafeRawBufferPointer {
        guard let d = pointer.pointee.data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: d, count: size)
    }
}
