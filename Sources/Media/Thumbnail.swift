import CAV
import Ground
import TurboJPEG

/// A small JPEG of a capture's representative picture (the still itself; a video's first
/// keyframe), for reports. A derived blob: never evidence, never compared to anything signed.
public struct Thumbnail: Sendable, Equatable {
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
    /// Size of the decoded source picture.
    public var sourceWidth: Int
    public var sourceHeight: Int
    /// The encoder that made `jpeg`, with its version: `StillThumbnailEncoder.tool`
    /// (`libjpeg-turbo 2.1.5 tjCompressFromYUVPlanes q=80`) for a JPEG still libjpeg-turbo
    /// decoded, `Thumbnail.libavTool` (`libavcodec mjpeg 59.37.100`) for the libavcodec path.
    public var tool: String

    /// Widest thumbnail produced.
    public static let maxWidth = 320

    public static func make(path: String, maxWidth: Int = Thumbnail.maxWidth) throws(MediaError) -> Thumbnail {
        try make(source: try FileByteSource.media(path), name: path, maxWidth: maxWidth)
    }

    /// Decodes the first picture (from the first keyframe), scales it to at most `maxWidth`
    /// wide (never up), keeping the aspect ratio with even sides, and encodes it as JPEG.
    /// A JPEG still is decoded by libjpeg-turbo at the smallest DCT scale at least the
    /// thumbnail and the parallax raster (`StillPicture.target`) and encoded by libjpeg-turbo;
    /// with `contentID` (the SHA-256 of the source's bytes) the planes `Parallax.measure` left
    /// in `StillPictureMemo` are used instead when present, so the still is not decoded a
    /// second time. Anything else goes through libavcodec (`makeWithLibAV`).
    public static func make(source: any ByteSource, name: String = "", maxWidth: Int = Thumbnail.maxWidth,
                            contentID: ContentID? = nil) throws(MediaError) -> Thumbnail {
        let widest = max(2, min(maxWidth, Thumbnail.maxWidth))
        // Media evidence is all or nothing (docs/media.md §10): without libav no thumbnail either,
        // although a still's path no longer calls it when its planes are the thumbnail's.
        try LibAV.require()
        if let id = contentID, let planes = StillPictureMemo.take(id), serves(planes, maxWidth: widest) {
            return try make(planes: planes, maxWidth: widest)
        }
        if StillPicture.isJPEG(source),
           let planes = try StillPicture.decodeDelivery(try StillPicture.bytes(of: source), maxWidth: widest) {
            return try make(planes: planes, maxWidth: widest)
        }
        return try makeWithLibAV(source: source, name: name, maxWidth: widest)
    }

    /// The libavcodec path: a video's first picture, and a JPEG libjpeg-turbo calls damaged or
    /// cannot decode to planes (CMYK) — as every JPEG was before issue 13.
    static func makeWithLibAV(source: any ByteSource, name: String = "", maxWidth widest: Int) throws(MediaError) -> Thumbnail {
        let input = try FormatInput(source: source, name: name)
        guard let v = input.firstStream(of: AVMEDIA_TYPE_VIDEO) else { throw .noSuchStream("video") }
        // A video's first picture at least twice the thumbnail's width is decoded at lowres 1–2,
        // never below the thumbnail's own size.
        let picture = try PictureDecoder.firstPicture(input, streamIndex: v, maxLowres: 2) { w, h in
            w >= 2 * widest ? size(width: w, height: h, maxWidth: widest) : nil
        }
        let (w, h) = size(width: picture.sourceWidth, height: picture.sourceHeight, maxWidth: widest)
        let small = try Scaler.scale(picture.frame, width: w, height: h, format: AV_PIX_FMT_YUVJ420P)
        let jpeg = try JPEGEncoder.encode(small, qscale: 5)
        return Thumbnail(jpeg: jpeg, width: w, height: h, sourceWidth: picture.sourceWidth, sourceHeight: picture.sourceHeight,
                         tool: libavTool)
    }

    /// True when planes decoded for another caller are at least the scale this thumbnail would
    /// decode at (the same decode, so the same bytes as a fresh `make`).
    static func serves(_ p: JPEGPlanes, maxWidth: Int) -> Bool {
        let t = StillPicture.target(width: p.sourceWidth, height: p.sourceHeight, maxWidth: maxWidth)
        return JPEGDecompressor.scale(width: p.sourceWidth, height: p.sourceHeight, atLeast: t) == p.scale
    }

    /// The thumbnail of a libjpeg-turbo decode, encoded by libjpeg-turbo (`StillThumbnailEncoder`).
    /// Planes that already are the thumbnail — 4:2:0 at its size, as a 1280×960 still decoded at
    /// 1/4 is — are encoded as they are; others are first brought to 4:2:0 at the thumbnail size
    /// by libswscale's area filter (`scaled: true` forces that path: at equal size and format
    /// libswscale only copies, so both give the same bytes — tested).
    static func make(planes p: JPEGPlanes, maxWidth: Int, scaled: Bool = false) throws(MediaError) -> Thumbnail {
        let (w, h) = size(width: p.sourceWidth, height: p.sourceHeight, maxWidth: maxWidth)
        let jpeg = if !scaled, p.subsampling == .s420, p.width == w, p.height == h {
            try StillThumbnailEncoder.encode(p)
        } else {
            try StillThumbnailEncoder.encode(try Scaler.scale(try Frame(planes: p), width: w, height: h, format: AV_PIX_FMT_YUVJ420P))
        }
        return Thumbnail(jpeg: jpeg, width: w, height: h, sourceWidth: p.sourceWidth, sourceHeight: p.sourceHeight,
                         tool: StillThumbnailEncoder.tool)
    }

    /// Target size: width min(source, maxWidth), height by aspect, both even and ≥ 2.
    static func size(width: Int, height: Int, maxWidth: Int) -> (Int, Int) {
        let w = min(width, maxWidth)
        let h = Int((Double(height) * Double(w) / Double(width)).rounded())
        return (max(2, w & ~1), max(2, h & ~1))
    }
}
