/// Chroma subsampling of a JPEG as libjpeg-turbo names it (`TJSAMP_*`, same raw values).
public enum ChromaSubsampling: Int32, Sendable, Equatable {
    case s444 = 0, s422 = 1, s420 = 2, gray = 3, s440 = 4, s411 = 5

    /// Number of planes a decode to planes yields.
    public var planeCount: Int { self == .gray ? 1 : 3 }
}

/// What a JPEG's headers say, read by `tjDecompressHeader3` (no decode).
public struct JPEGImageInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var subsampling: ChromaSubsampling
    /// `TJCS_*`: 0 RGB, 1 YCbCr, 2 gray, 3 CMYK, 4 YCCK.
    public var colorSpace: Int32

    /// True when the picture can be decoded to Y/Cb/Cr (or gray) planes.
    public var decodesToPlanes: Bool { colorSpace != 3 && colorSpace != 4 }
}

/// A picture decoded at one DCT scale into 8-bit planes: Y (or gray), then Cb and Cr at the
/// JPEG's own subsampling. Each plane is `widths[i]` bytes a row (no padding), `heights[i]` rows.
public struct JPEGPlanes: Sendable, Equatable {
    /// Size of the decoded (scaled) picture.
    public var width: Int
    public var height: Int
    /// Size of the coded picture before scaling.
    public var sourceWidth: Int
    public var sourceHeight: Int
    /// The scale used, `num/denom` (1/8 … 1).
    public var scale: (num: Int, denom: Int)
    public var subsampling: ChromaSubsampling
    public var planes: [[UInt8]]
    public var widths: [Int]
    public var heights: [Int]

    public static func == (a: JPEGPlanes, b: JPEGPlanes) -> Bool {
        a.width == b.width && a.height == b.height && a.sourceWidth == b.sourceWidth && a.sourceHeight == b.sourceHeight
            && a.scale == b.scale && a.subsampling == b.subsampling && a.planes == b.planes
            && a.widths == b.widths && a.heights == b.heights
    }

    /// Bytes held (all planes).
    public var byteCount: Int { planes.reduce(0) { $0 + $1.count } }
}
