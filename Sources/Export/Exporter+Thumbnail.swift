import Media

extension Exporter {
    /// Thumbnails decoded with libavcodec (the Media module): the first picture of a still or a
    /// video, scaled to at most 240 px wide, re-encoded as JPEG for a `data:` URI.
    public static let mediaThumbnailer: Thumbnailer = { path, _ in
        guard let t = try? Thumbnail.make(path: path, maxWidth: 240) else { return nil }
        return ("image/jpeg", t.jpeg)
    }
}
