import CZlib
import Ground

/// zlib/deflate decompression with a bound on the output: PDF `FlateDecode` streams (xref and
/// object streams), compressed ID3 frames. The only module that imports `CZlib`.
public enum Inflate {
    /// Why bytes could not be inflated. `code` is stable.
    public enum Failure: Error, Equatable, Sendable {
        /// Not a valid zlib (or raw deflate) stream, or cut short.
        case corrupt
        /// The output would exceed the caller's limit (a decompression bomb).
        case tooLarge(limit: Int)

        public var code: String {
            switch self {
            case .corrupt: StatusCode.inflateCorrupt
            case .tooLarge: StatusCode.inflateTooLarge
            }
        }
    }

    public enum Wrapper: Sendable {
        /// RFC 1950: a 2-byte header and an Adler-32 trailer (PDF `FlateDecode`, ID3).
        case zlib
        /// RFC 1951 with no header.
        case raw
    }

    /// The inflated bytes of `input`, at most `limit` of them. Trailing bytes after the end of
    /// the deflate stream are ignored (PDF writers often leave an end-of-line there).
    public static func inflate(_ input: [UInt8], wrapper: Wrapper = .zlib, limit: Int) throws(Failure) -> [UInt8] {
        // zlib keeps a pointer back to the z_stream in its state and refuses a call whose
        // stream is at another address (inflateStateCheck); `&local` may hand C a temporary,
        // so the stream lives at one allocated address for its whole life.
        // One call takes at most 4 GiB of input (avail_in is 32-bit).
        guard input.count <= Int(UInt32.max) else { throw .tooLarge(limit: Int(UInt32.max)) }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deinitialize(count: 1); stream.deallocate() }
        guard cz_inflate_init2(stream, wrapper == .zlib ? 15 : -15) == Z_OK else { throw .corrupt }
        defer { inflateEnd(stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status: Int32 = Z_OK
        var failure: Failure?
        var input = input
        input.withUnsafeMutableBufferPointer { inBuf in
            stream.pointee.next_in = inBuf.baseAddress
            stream.pointee.avail_in = UInt32(inBuf.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { outBuf in
                    stream.pointee.next_out = outBuf.baseAddress
                    stream.pointee.avail_out = UInt32(outBuf.count)
                    status = CZlib.inflate(stream, Z_NO_FLUSH)
                    let produced = outBuf.count - Int(stream.pointee.avail_out)
                    if out.count + produced > limit { failure = .tooLarge(limit: limit); return }
                    out.append(contentsOf: outBuf[0..<produced])
                }
                if failure != nil { return }
                if status == Z_BUF_ERROR && stream.pointee.avail_in == 0 { failure = .corrupt; return }
            } while status == Z_OK
            if status != Z_STREAM_END { failure = failure ?? .corrupt }
        }
        if let failure { throw failure }
        return out
    }
}
