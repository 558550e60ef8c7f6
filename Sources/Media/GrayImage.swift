import CAV
import Ground
import TurboJPEG

/// An 8-bit grayscale raster, row-major, `width` bytes a row (the parallax analysis raster).
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    @inline(__always) public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// The first picture of an image or video, decoded and reduced to `width`×`height` gray
    /// (aspect not kept: the analysis raster is fixed). A JPEG is decoded by libjpeg-turbo
    /// straight to gray at the smallest DCT scale still at least `width`×`height` (1280×960 →
    /// 160×120 at 1/8 for 96×64); anything else, and a JPEG it calls damaged, by libavcodec.
    public static func decode(source: any ByteSource, name: String = "", width: Int, height: Int) throws(MediaError) -> GrayImage {
        if StillPicture.isJPEG(source),
           let gray = try StillPicture.decodeGray(try StillPicture.bytes(of: source), atLeast: (width, height)) {
            return try raster(from: gray, width: width, height: height)
        }
        return try decodeWithLibAV(source: source, name: name, width: width, height: height)
    }

    /// The libavcodec path: any picture libavformat opens, and a JPEG libjpeg-turbo calls damaged
    /// or cannot decode to planes (CMYK) — as every JPEG was before issue 13.
    static func decodeWithLibAV(source: any ByteSource, name: String = "", width: Int, height: Int) throws(MediaError) -> GrayImage {
        let input = try FormatInput(source: source, name: name)
        guard let v = input.firstStream(of: AVMEDIA_TYPE_VIDEO) else { throw .noSuchStream("video") }
        let frame = try PictureDecoder.firstPicture(input, streamIndex: v, needed: { _, _ in (width, height) }).frame
        let gray = try Scaler.scale(frame, width: width, height: height, format: AV_PIX_FMT_GRAY8)
        guard let image = GrayImage(width: width, height: height, pixels: gray.plane0(width: width, height: height)) else {
            throw .scaleFailed(detail: "gray plane of \(width)x\(height) not filled")
        }
        return image
    }

    /// The first plane (luma, or gray) of a libjpeg-turbo decode reduced to `width`×`height` with
    /// libswscale's area filter, as for a libavcodec picture.
    static func raster(from planes: JPEGPlanes, width: Int, height: Int) throws(MediaError) -> GrayImage {
        let luma = try Frame(luma: planes)
        let gray = try Scaler.scale(luma, width: width, height: height, format: AV_PIX_FMT_GRAY8)
        guard let image = GrayImage(width: width, height: height, pixels: gray.plane0(width: width, height: height)) else {
            throw .scaleFailed(detail: "gray plane of \(width)x\(height) not filled")
        }
        return image
    }

    public static func decode(path: String, width: Int, height: Int) throws(MediaError) -> GrayImage {
        try decode(source: try FileByteSource.media(path), name: path, width: width, height: height)
    }
}
