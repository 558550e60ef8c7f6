import CAV

/// An 8-bit grayscale raster, row-major, `width` bytes a row (the parallax analysis raster).
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(unchecked width: Int, _ height: Int, _ pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    @inline(__always) public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// The first picture of an image or video, decoded and reduced to `width`×`height` gray
    /// (aspect not kept: the analysis raster is fixed).
    public static func decode(source: MediaByteSource, name: String = "", width: Int, height: Int) throws(MediaError) -> GrayImage {
        let input = try FormatInput(source: source, name: name)
        guard let v = input.firstStream(of: AVMEDIA_TYPE_VIDEO) else { throw .noSuchStream("video") }
        let frame = try PictureDecoder.firstPicture(input, streamIndex: v)
        let gray = try Scaler.scale(frame, width: width, height: height, format: AV_PIX_FMT_GRAY8)
        return GrayImage(unchecked: width, height, gray.plane0(width: width, height: height))
    }

    public static func decode(path: String, width: Int, height: Int) throws(MediaError) -> GrayImage {
        try decode(source: try FileMediaSource(path: path), name: path, width: width, height: height)
    }
}
