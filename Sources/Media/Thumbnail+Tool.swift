import CAVLoader

extension Thumbnail {
    /// libavcodec's encoder, with the loaded libavcodec's version (`libavcodec mjpeg 59.37.100`):
    /// the `tool` of a video's thumbnail and of a still libjpeg-turbo could not decode, and of a
    /// thumbnail entry whose picture did not decode (no thumbnail, a finding). When libav cannot
    /// be loaded: `libavcodec mjpeg unavailable`.
    public static var libavTool: String {
        guard LibAV.isAvailable else { return "libavcodec mjpeg unavailable" }
        let v = cav_avcodec_version()
        return "libavcodec mjpeg \(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
    }
}
