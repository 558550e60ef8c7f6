import CTurboJPEG

/// Owns one TurboJPEG decompression handle (`tjInitDecompress`, freed by `tjDestroy` in
/// `deinit`). Decodes a JPEG held in memory at one of libjpeg-turbo's DCT-domain scales
/// (1/8, 1/4, 3/8, … 1): the 8×8 inverse DCT is computed at the reduced size, so a picture
/// decoded at 1/4 never exists at full size. Not thread-safe: one handle per thread at a time.
public final class JPEGDecompressor: @unchecked Sendable {
    private let handle: tjhandle

    /// libjpeg-turbo's version from the headers built against: `2.1.5`.
    public static var version: String {
        let v = Int(exhibit_tj_version_number)
        return "\(v / 1_000_000).\(v / 1000 % 1000).\(v % 1000)"
    }

    public init() throws(TurboJPEGError) {
        guard let h = tjInitDecompress() else { throw .handleUnavailable(detail: String(cString: tjGetErrorStr2(nil))) }
        handle = h
    }

    deinit { tjDestroy(handle) }

    /// Width, height, subsampling and colour space from the headers (no decode).
    public func info(_ jpeg: UnsafeRawBufferPointer) throws(TurboJPEGError) -> JPEGImageInfo {
        guard let base = jpeg.baseAddress, jpeg.count > 0, jpeg.count <= Int(UInt32.max) else {
            throw .headerUnreadable(detail: "\(jpeg.count) bytes")
        }
        var w: Int32 = 0, h: Int32 = 0, samp: Int32 = 0, cs: Int32 = 0
        let rc = tjDecompressHeader3(handle, base.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), &w, &h, &samp, &cs)
        guard rc == 0, w > 0, h > 0 else { throw .headerUnreadable(detail: errorText()) }
        // A JPEG's subsampling outside TJSAMP_* (e.g. 4:1:0) reads as -1: decode it as gray planes
        // is wrong, so it is refused as a colour space the planes cannot hold.
        guard let s = ChromaSubsampling(rawValue: samp) else { throw .colorSpaceUnsupported(cs) }
        return JPEGImageInfo(width: Int(w), height: Int(h), subsampling: s, colorSpace: cs)
    }

    /// The smallest scale (≤ 1) whose scaled picture is at least `target` on both sides; 1/1
    /// when none smaller is.
    public static func scale(width: Int, height: Int, atLeast target: (width: Int, height: Int)) -> (num: Int, denom: Int) {
        var n: Int32 = 0
        guard let list = tjGetScalingFactors(&n), n > 0 else { return (1, 1) }
        var best = (num: 1, denom: 1)
        for i in 0..<Int(n) {
            let f = list[i]
            guard f.num <= f.denom, width <= Int(Int32.max), height <= Int(Int32.max) else { continue }
            let w = Int(exhibit_tj_scaled(Int32(width), f)), h = Int(exhibit_tj_scaled(Int32(height), f))
            guard w >= target.width, h >= target.height else { continue }
            if Int(f.num) * best.denom < best.num * Int(f.denom) { best = (Int(f.num), Int(f.denom)) }
        }
        return best
    }

    /// Decodes to planes (Y, Cb, Cr at the JPEG's subsampling; one plane for gray) at the
    /// smallest scale at least `target`. `maxPixels` caps the coded picture before decoding.
    public func planes(_ jpeg: UnsafeRawBufferPointer, atLeast target: (width: Int, height: Int),
                       maxPixels: Int) throws(TurboJPEGError) -> JPEGPlanes {
        let info = try checked(jpeg, maxPixels: maxPixels)
        guard info.decodesToPlanes else { throw .colorSpaceUnsupported(info.colorSpace) }
        let f = JPEGDecompressor.scale(width: info.width, height: info.height, atLeast: target)
        let factor = tjscalingfactor(num: Int32(f.num), denom: Int32(f.denom))
        let w = Int(exhibit_tj_scaled(Int32(info.width), factor)), h = Int(exhibit_tj_scaled(Int32(info.height), factor))
        let samp = info.subsampling
        var widths: [Int] = [], heights: [Int] = [], offsets: [Int] = [], total = 0
        for c in 0..<samp.planeCount {
            let pw = Int(tjPlaneWidth(Int32(c), Int32(w), samp.rawValue)), ph = Int(tjPlaneHeight(Int32(c), Int32(h), samp.rawValue))
            guard pw > 0, ph > 0 else { throw .decodeFailed(detail: "plane \(c) of \(w)x\(h)") }
            widths.append(pw)
            heights.append(ph)
            offsets.append(total)
            total += pw * ph
        }
        // One buffer for all planes, decoded in place, then split.
        var all = [UInt8](repeating: 0, count: total)
        let rc = all.withUnsafeMutableBufferPointer { buf -> Int32 in
            var ptrs: [UnsafeMutablePointer<UInt8>?] = offsets.map { buf.baseAddress! + $0 }
            var strides = widths.map { Int32($0) }
            return tjDecompressToYUVPlanes(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                           &ptrs, Int32(w), &strides, Int32(h), exhibit_tj_flags)
        }
        let planes = offsets.indices.map { Array(all[offsets[$0]..<offsets[$0] + widths[$0] * heights[$0]]) }
        try check(rc)
        return JPEGPlanes(width: w, height: h, sourceWidth: info.width, sourceHeight: info.height, scale: f,
                          subsampling: samp, planes: planes, widths: widths, heights: heights)
    }

    /// Decodes straight to 8-bit gray (libjpeg-turbo skips the chroma) at the smallest scale at
    /// least `target`: one plane, `width` bytes a row.
    public func gray(_ jpeg: UnsafeRawBufferPointer, atLeast target: (width: Int, height: Int),
                     maxPixels: Int) throws(TurboJPEGError) -> JPEGPlanes {
        let info = try checked(jpeg, maxPixels: maxPixels)
        let f = JPEGDecompressor.scale(width: info.width, height: info.height, atLeast: target)
        let factor = tjscalingfactor(num: Int32(f.num), denom: Int32(f.denom))
        let w = Int(exhibit_tj_scaled(Int32(info.width), factor)), h = Int(exhibit_tj_scaled(Int32(info.height), factor))
        var pixels = [UInt8](repeating: 0, count: w * h)
        let rc = pixels.withUnsafeMutableBufferPointer { p in
            tjDecompress2(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), p.baseAddress,
                          Int32(w), Int32(w), Int32(h), Int32(TJPF_GRAY.rawValue), exhibit_tj_flags)
        }
        try check(rc)
        return JPEGPlanes(width: w, height: h, sourceWidth: info.width, sourceHeight: info.height, scale: f,
                          subsampling: .gray, planes: [pixels], widths: [w], heights: [h])
    }

    private func checked(_ jpeg: UnsafeRawBufferPointer, maxPixels: Int) throws(TurboJPEGError) -> JPEGImageInfo {
        let info = try info(jpeg)
        guard info.width <= 65_535, info.height <= 65_535, info.width * info.height <= maxPixels else {
            throw .dimensionsTooLarge(width: info.width, height: info.height)
        }
        return info
    }

    /// A warning (the decode stopped at it) is `.damaged`, anything else `.decodeFailed`.
    private func check(_ rc: Int32) throws(TurboJPEGError) {
        guard rc != 0 else { return }
        if tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) { throw .damaged(detail: errorText()) }
        throw .decodeFailed(detail: errorText())
    }

    private func errorText() -> String {
        tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
    }
}
