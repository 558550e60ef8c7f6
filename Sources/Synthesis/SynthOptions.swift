import Foundation

/// What to generate.
public struct SynthOptions: Sendable {
    public var stills: Int
    public var videos: Int
    public var seed: UInt64
    public var videoSeconds: Double
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
