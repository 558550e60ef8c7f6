import CAV
import CAVLoader
import Ground

/// Owns the custom `AVIOContext` (and its buffer) through which libavformat reads a
/// `ByteSource` — the same source the rest of the verification reads, so libav sees exactly
/// the bytes the archive hashed. The context's `opaque` points back here, unretained: the
/// owning `FormatInput` keeps this object alive for as long as libav may call back.
final class MediaIO {
    let source: any ByteSource
    /// False for an `UnseekableSource`: libav then reads forwards only.
    let isSeekable: Bool
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private var position: Int64 = 0
    /// Bytes handed to libav so far.
    private(set) var bytesRead: Int64 = 0
    /// The source's own error, kept so a libav `EIO` can be reported by its real cause.
    var lastError: MediaError?

    static let bufferSize: Int32 = 256 << 10

    init(source: any ByteSource) throws(MediaError) {
        self.source = source
        isSeekable = !(source is UnseekableSource)
        try LibAV.require()
        guard let buffer = cav_av_malloc(Int(MediaIO.bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw .cannotOpen(detail: "av_malloc failed")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let seek: (@convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64)? = isSeekable ? { opaque, offset, whence in
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
        ctx.pointee.seekable = isSeekable ? AVIO_SEEKABLE_NORMAL : 0
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
        // libav seeks wherever a header points (past the end of a short or hostile file) and
        // reads: that is the end of the input, not a failed read.
        if position >= source.count { return exhibit_AVERROR_EOF }
        do {
            let n = try source.read(at: position, into: UnsafeMutableRawBufferPointer(start: buf, count: size))
            if n == 0 { return exhibit_AVERROR_EOF }
            position += Int64(n)
            bytesRead += Int64(n)
            return Int32(n)
        } catch {
            lastError = .corrupt(detail: "read failed at \(position): \(error)")
            return exhibit_AVERROR(EIO)
        }
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == exhibit_AVSEEK_SIZE { return isSeekable ? source.count : -1 }
        let target: Int64
        switch mode {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            guard isSeekable else { return -1 }
            target = source.count + offset
        default: return -1
        }
        // Past the end is refused (as the memory source did before Ground; a read there has nothing).
        guard target >= 0, target <= source.count else { return -1 }
        position = target
        return target
    }
}
