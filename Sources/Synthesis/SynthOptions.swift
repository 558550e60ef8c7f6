import Foundation

/// What to generate.
public struct SynthOptions: Sendable {
    public var stills: Int
    public var videos: Int
    public var seed: UInt64
    public var videoSeconds: Double
    /// Target bit rate of each video in Mb/s (10^6 bit/s; x264 ABR with maxrate = this and a
    /// buffer of two seconds' worth), 1…800. The default 10 renders the bytes it always did.
    public var videoMbps: Int = SynthOptions.defaultVideoMbps
    public static let defaultVideoMbps = 10
    public static let videoMbpsRange = 1...800
    public var faults: [SynthFault]
    public var ffmpeg: String
    /// Worker threads for the per-capture work (signing, sidecars, bundles).
    public var concurrency: Int
    /// Still raster (the second view and its calibration use the same).
    public var stillWidth: Int
    public var stillHeight: Int

    public init(stills: Int, videos: Int, seed: UInt64 = 1, videoSeconds: Double = 10, faults: [SynthFault] = [],
                ffmpeg: String = "/usr/bin/ffmpeg", concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
                stillWidth: Int = 1280, stillHeight: Int = 960) {
        self.stills = stills
        self.videos = videos
        self.seed = seed
        self.videoSeconds = videoSeconds
        self.faults = faults
        self.ffmpeg = ffmpeg
        self.concurrency = max(1, concurrency)
        self.stillWidth = stillWidth
        self.stillHeight = stillHeight
    }
}
