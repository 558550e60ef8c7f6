import CAV
import Ground

/// A small JPEG of a capture's representative picture (the still itself; a video's first
/// keyframe), for reports. A derived blob: never evidence, never compared to anything signed.
public struct Thumbnail: Sendable, Equatable {
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
    /// Size of the decoded source picture.
    public var sourceWidth: Int
    public var sourceHeight: Int

    /// Widest thumbnail produced.
    public static let maxWidth = 320

    public static func make(path: String, maxWidth: Int = Thumbnail.maxWidth) throws(MediaError) -> Thumbnail {
        try make(source: try FileByteSource.media(path), name: path, maxWidth: maxWidth)
    }

    /// Decodes the first picture (from the first keyframe), scales it to at most `maxWidth`
    /// wide (never up), keeping the aspect ratio with even sides, and encodes it as JPEG.
    public static func make(source: any ByteSource, name: String = "", maxWidth: Int = Thumbnail.maxWidth) throws(MediaError) -> Thumbnail {
        let input = try FormatInput(source: source, name: name)
        guard let v = input.firstStream(of: AVMEDIA_TYPE_VIDEO) else { throw .noSuchStream("video") }
        let widest = max(2, min(maxWidth, Thumbnail.maxWidth))
        // A JPEG source at least twice the thumbnail's width is decoded at lowres 1–2, never
        // below the thumbnail's own size.
        let picture = try PictureDecoder.firstPicture(input, streamIndex: v, maxLowres: 2) { w, h in
            w >= 2 * widest ? size(width: w, height: h, maxWidth: widest) : nil
        }
        let (w, h) = size(width: picture.sourceWidth, height: picture.sourceHeight, maxWidth: widest)
        let small = try Scaler.scale(picture.frame, width: w, height: h, format: AV_PIX_FMT_YUVJ420P)
        let jpeg = try JPEGEncoder.encode(small, qscale: 5)
        return Thumbnail(jpeg: jpeg, width: w, height: h, sourceWidth: picture.sourceWidth, sourceHeight: picture.sourceHeight)
    }

    /// Target size: width min(source, maxWidth), height by aspect, both even and ≥ 2.
    static func size(width: Int, height: Int, maxWidth: Int) -> (Int, Int) {
        let w = min(width, maxWidth)
        let h = Int((Double(height) * Double(w) / Double(width)).rounded())
        return (max(2, w & ~1), max(2, h & ~1))
    }
}
