import CAV
import CAVLoader

/// Owns the custom `AVIOContext` (and its buffer) through which libavformat reads a
/// `MediaByteSource`. The context's `opaque` points back here, unretained: the owning
/// `FormatInput` keeps this object alive for as long as libav may call back.
final class MediaIO {
    let source: MediaByteSource
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private var position: Int64 = 0
    /// Bytes handed to libav so far.
    private(set) var bytesRead: Int64 = 0
    /// The source's own error, kept so a libav `EIO` can be reported by its real cause.
    var lastError: MediaError?

    static let bufferSize: Int32 = 256 << 10

    init(source: MediaByteSource) throws(MediaError) {
        self.source = source
        try LibAV.require()
        guard let buffer = cav_av_malloc(Int(MediaIO.bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw .cannotOpen(detail: "av_malloc failed")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let seek: (@convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64)? = source.isSeekable ? { opaque, offset, whence in
            guard let opaque else { return -1 }
            return Unmanaged<MediaIO>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
        } : nil
        guard let ctx = cav_avio_alloc_context(buffer, MediaIO.bufferSize, 0, opaque, { opaque, buf, size in
            guard let opaque, let buf, size > 0 else { return exhibit_AVERROR_EOF }
            return Unmanaged<MediaIO>.fromOpaque(opaque).takeUnretainedValue().read(buf, Int(size))
        }, nil, seek) else {
            var b: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(buffer)
            cav_av_freep(&b)
            throw .cannotOpen(detail: "avio_alloc_context failed")
        }
        ctx.pointee.seekable = source.isSeekable ? AVIO_SEEKABLE_NORMAL : 0
        self.context = ctx
    }

    deinit {
        if let ctx = context {
            // libav may have replaced the buffer; free whatever it holds now.
            withUnsafeMutablePointer(to: &ctx.pointee.buffer) { p in
                p.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { cav_av_freep($0) }
            }
            var c: UnsafeMutablePointer<AVIOContext>? = ctx
            cav_avio_context_free(&c)
        }
    }

    private func read(_ buf: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        do {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: buf, count: size))
            if n == 0 { return exhibit_AVERROR_EOF }
            position += Int64(n)
            bytesRead += Int64(n)
            return Int32(n)
        } catch {
            lastError = error
            return exhibit_AVERROR(EIO)
        }
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == exhibit_AVSEEK_SIZE { return source.size ?? -1 }
        let target: Int64
        switch mode {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            guard let size = source.size else { return -1 }
            target = size + offset
        default: return -1
        }
        guard target >= 0 else { return -1 }
        do {
            try source.seek(to: target)
            position = target
            return target
        } catch {
            lastError = error
            return -1
        }
    }
}
