import CTurboJPEG

/// Owns one TurboJPEG compression handle (`tjInitCompress`, freed by `tjDestroy` in `deinit`).
/// Encodes 8-bit Y/Cb/Cr planes as a baseline JFIF JPEG with `tjCompressFromYUVPlanes`: no
/// colour conversion and no scaling (the caller hands planes at the picture's own size and
/// subsampling), libjpeg-turbo's default islow DCT and standard Huffman tables. Deterministic:
/// the same planes and quality give the same bytes. Not thread-safe: one handle per thread at a
/// time.
public final class JPEGCompressor: @unchecked Sendable {
    private let handle: tjhandle

    public init() throws(TurboJPEGError) {
        guard let h = tjInitCompress() else { throw .handleUnavailable(detail: String(cString: tjGetErrorStr2(nil))) }
        handle = h
    }

    deinit { tjDestroy(handle) }

    /// The picture held in `planes` (as `JPEGDecompressor.planes` returns them), encoded at
    /// `quality` (1 worst … 100 best) with the planes' own subsampling.
    public func compress(_ p: JPEGPlanes, quality: Int) throws(TurboJPEGError) -> [UInt8] {
        let strides = p.widths
        var result: Result<[UInt8], TurboJPEGError> = .failure(.encodeFailed(detail: "no planes"))
        withBases(p.planes) { bases in
            result = Result { () throws(TurboJPEGError) in
                try compress(planes: bases, counts: p.planes.map(\.count), strides: strides, width: p.width, height: p.height,
                             subsampling: p.subsampling, quality: quality)
            }
        }
        return try result.get()
    }

    /// Encodes planes the caller holds (e.g. a libav frame's buffers): `planes[i]` points at
    /// `counts[i]` readable bytes, rows `strides[i]` bytes apart. Every plane is checked to hold
    /// its rows (`tjPlaneWidth` × `tjPlaneHeight` at the stride) before libjpeg-turbo reads it.
    public func compress(planes: [UnsafePointer<UInt8>], counts: [Int], strides: [Int], width: Int, height: Int,
                         subsampling: ChromaSubsampling, quality: Int) throws(TurboJPEGError) -> [UInt8] {
        guard width > 0, height > 0, width <= 65_535, height <= 65_535 else {
            throw .dimensionsTooLarge(width: width, height: height)
        }
        guard (1...100).contains(quality) else { throw .encodeFailed(detail: "quality \(quality) outside 1…100") }
        let n = subsampling.planeCount
        guard planes.count == n, counts.count == n, strides.count == n else {
            throw .encodeFailed(detail: "\(planes.count) planes for \(n)")
        }
        for c in 0..<n {
            let pw = Int(tjPlaneWidth(Int32(c), Int32(width), subsampling.rawValue))
            let ph = Int(tjPlaneHeight(Int32(c), Int32(height), subsampling.rawValue))
            guard pw > 0, ph > 0, strides[c] >= pw, strides[c] <= Int(Int32.max),
                  counts[c] >= strides[c] * (ph - 1) + pw else {
                throw .encodeFailed(detail: "plane \(c) (\(counts[c]) bytes, stride \(strides[c])) does not hold \(pw)x\(ph)")
            }
        }
        var srcs: [UnsafePointer<UInt8>?] = planes
        var s32 = strides.map { Int32($0) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let out { tjFree(out) } }
        let rc = tjCompressFromYUVPlanes(handle, &srcs, Int32(width), &s32, Int32(height), subsampling.rawValue,
                                         &out, &size, Int32(quality), 0)
        guard rc == 0, let out, size > 0 else { throw .encodeFailed(detail: errorText()) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    private func errorText() -> String {
        tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
    }
}

/// Calls `body` with the base addresses of every array in `arrays`, each valid for the call.
private func withBases(_ arrays: [[UInt8]], _ body: ([UnsafePointer<UInt8>]) -> Void) {
    func nest(_ i: Int, _ acc: [UnsafePointer<UInt8>]) {
        guard i < arrays.count else { return body(acc) }
        arrays[i].withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            nest(i + 1, acc + [base])
        }
    }
    nest(0, [])
}
