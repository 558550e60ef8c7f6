import CAV

extension Thumbnail {
    /// The encoder that makes thumbnails, with the linked libavcodec's version
    /// (`libavcodec mjpeg 59.37.100`): recorded beside each stored thumbnail.
    public static var tool: String {
        let v = avcodec_version()
        return "libavcodec mjpeg \(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
    }
}
