import Crypto
import Ground
import TurboJPEG

/// A JPEG still decoded once by libjpeg-turbo, at the smallest DCT scale that serves both
/// analyses of a delivery file: the thumbnail (`Thumbnail.size` of the coded picture) and the
/// parallax raster (96 × 64). The second view, needed only in gray, is decoded straight to gray
/// at the scale the raster needs (`GrayImage.decode`). Video first pictures stay with libavcodec.
enum StillPicture {
    /// True when the source starts with SOI and a marker (`FF D8 FF`): a JPEG for libjpeg-turbo.
    static func isJPEG(_ source: any ByteSource) -> Bool {
        guard source.count >= 3, let head = try? source.readExactly(at: 0, count: 3) else { return false }
        return head == [0xFF, 0xD8, 0xFF]
    }

    /// The whole JPEG (libjpeg-turbo decodes from memory), at most `MediaLimits.maxPacketBytes`.
    static func bytes(of source: any ByteSource) throws(MediaError) -> [UInt8] {
        guard source.count <= Int64(MediaLimits.maxPacketBytes) else { throw .packetTooLarge(Int(clamping: source.count)) }
        if let memory = source as? MemoryByteSource { return memory.bytes }   // shared, not copied
        do { return try source.readExactly(at: 0, count: Int(source.count)) } catch {
            throw .cannotOpen(detail: error.description)
        }
    }

    /// The decode size that serves both the thumbnail and the parallax raster for a picture of
    /// `width`×`height` (the thumbnail's own size alone when `maxWidth` is not the default).
    static func target(width: Int, height: Int, maxWidth: Int = Thumbnail.maxWidth) -> (width: Int, height: Int) {
        let (tw, th) = Thumbnail.size(width: width, height: height, maxWidth: maxWidth)
        return (max(tw, Parallax.rasterWidth), max(th, Parallax.rasterHeight))
    }

    /// Decodes the delivery still to planes at the shared scale. Nil: a JPEG libjpeg-turbo
    /// warns about (damaged) or cannot hold in planes (CMYK, YCCK), which the caller hands to
    /// libavcodec as before issue 13, so a damaged still is judged exactly as it was.
    static func decodeDelivery(_ jpeg: [UInt8], maxWidth: Int = Thumbnail.maxWidth) throws(MediaError) -> JPEGPlanes? {
        try run(jpeg) { d, raw throws(TurboJPEGError) in
            let info = try d.info(raw)
            return try d.planes(raw, atLeast: target(width: info.width, height: info.height, maxWidth: maxWidth),
                                maxPixels: MediaLimits.maxPixels)
        }
    }

    /// Decodes straight to gray at the smallest scale at least `target` (nil as above).
    static func decodeGray(_ jpeg: [UInt8], atLeast target: (width: Int, height: Int)) throws(MediaError) -> JPEGPlanes? {
        try run(jpeg) { d, raw throws(TurboJPEGError) in try d.gray(raw, atLeast: target, maxPixels: MediaLimits.maxPixels) }
    }

    private static func run(_ jpeg: [UInt8],
                            _ body: (JPEGDecompressor, UnsafeRawBufferPointer) throws(TurboJPEGError) -> JPEGPlanes) throws(MediaError) -> JPEGPlanes? {
        let r = jpeg.withUnsafeBytes { raw -> Result<JPEGPlanes, TurboJPEGError> in
            do throws(TurboJPEGError) { return .success(try body(try JPEGDecompressor(), raw)) } catch { return .failure(error) }
        }
        switch r {
        case .success(let p): return p
        case .failure(.damaged), .failure(.colorSpaceUnsupported): return nil
        case .failure(.dimensionsTooLarge(let w, let h)): throw .dimensionsTooLarge(width: w, height: h)
        case .failure(let e): throw .decodeFailed(detail: e.description)
        }
    }
}
