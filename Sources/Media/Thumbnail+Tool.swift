import CAVLoader

extension Thumbnail {
    /// The encoder that makes thumbnails, with the loaded libavcodec's version
    /// (`libavcodec mjpeg 59.37.100`): recorded beside each stored thumbnail. When libav cannot
    /// be loaded (no thumbnail is made then): `libavcodec mjpeg unavailable`.
    public static var tool: String {
        guard LibAV.isAvailable else { return "libavcodec mjpeg unavailable" }
        let v = cav_avcodec_version()
        return "libavcodec mjpeg \(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
    }
}
