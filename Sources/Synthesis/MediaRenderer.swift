import Foundation
import Ground

/// Runs ffmpeg once per dump per media type: the stills and their second views (one filter
/// graph: the second view is a crop of the same wider frame, shifted by a known disparity), the
/// ring frames, the depth maps; and once per video. All sources are lavfi generators with
/// seed-driven parameters and `+bitexact`, so the media repeat for a seed.
public struct MediaRenderer: Sendable {
    public var ffmpeg: String
    public var seed: UInt64
    public var work: String

    /// Disparity of still `n` (0-based) in pixels at the still raster: 48 + 8 × (n mod 6).
    public static func disparity(ofStill n: Int) -> Int { 48 + 8 * (n % 6) }
    public static let maxDisparity = 48 + 8 * 5
    public static let ringSize = (width: 320, height: 240)
    public static let depthSize = (width: 160, height: 120)

    var hue: Int { Int(seed % 360) }
    var noiseSeed: UInt64 { seed % 2_147_483_647 }

    func run(_ args: [String]) throws(SynthError) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg)
        p.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { throw SynthError(StatusCode.synthFfmpeg, "cannot run \(ffmpeg): \(error)") }
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw SynthError(StatusCode.synthFfmpeg, "ffmpeg exit \(p.terminationStatus): \(String(decoding: data.prefix(2000), as: UTF8.self))")
        }
    }

    static let bitexact = ["-fflags", "+bitexact", "-flags:v", "+bitexact"]

    /// `still-%07d.jpg` and `second-%07d.jpg` (1-based) in `work`.
    public func renderStills(count: Int, width: Int, height: Int) throws(SynthError) {
        guard count > 0 else { return }
        let wide = width + MediaRenderer.maxDisparity
        let graph = "[0:v]hue=h=\(hue),noise=alls=14:allf=t+u:all_seed=\(noiseSeed),split=2[a][b];"
            + "[a]crop=\(width):\(height):0:0[m];[b]crop=\(width):\(height):'48+8*mod(n,6)':0[s]"
        try run(["-f", "lavfi", "-i", "testsrc2=size=\(wide)x\(height):rate=5", "-filter_complex", graph,
                 "-map", "[m]", "-frames:v", "\(count)", "-q:v", "4"] + MediaRenderer.bitexact + ["\(work)/still-%07d.jpg",
                 "-map", "[s]", "-frames:v", "\(count)", "-q:v", "4"] + MediaRenderer.bitexact + ["\(work)/second-%07d.jpg"])
    }

    /// `ring-%07d.jpg`: 7 frames per still, frames 7i+1 … 7i+7 for still i.
    public func renderRing(stills: Int) throws(SynthError) {
        guard stills > 0 else { return }
        let s = MediaRenderer.ringSize
        try run(["-f", "lavfi", "-i", "testsrc2=size=\(s.width)x\(s.height):rate=10",
                 "-vf", "hue=h=\((hue + 120) % 360),noise=alls=8:allf=u:all_seed=\(noiseSeed + 1)",
                 "-frames:v", "\(stills * 7)", "-q:v", "8"] + MediaRenderer.bitexact + ["\(work)/ring-%07d.jpg"])
    }

    /// `depth-%07d.png`: 16-bit grayscale PNGs (RangeInverse-coded depth, docs/capture-format.md §5.5).
    public func renderDepth(stills: Int) throws(SynthError) {
        guard stills > 0 else { return }
        let s = MediaRenderer.depthSize
        // A tilted plane whose offset steps per frame: cheap per pixel, and (unlike `gradients`,
        // whose output varies between runs) the same bytes for a seed.
        let geq = "geq=lum='20000+250*Y+30*X+mod(N*37+\(seed % 9000)\\,9000)'"
        try run(["-f", "lavfi", "-i", "nullsrc=size=\(s.width)x\(s.height):rate=5,format=gray16le,\(geq)",
                 "-frames:v", "\(stills)", "-pix_fmt", "gray16be"] + MediaRenderer.bitexact + ["\(work)/depth-%07d.png"])
    }

    /// One 1080p H.264 (~`mbps` Mb/s, default 10) + AAC (48 kHz mono) MP4 of `seconds`, moov first. x264 runs
    /// single-threaded: its frame threads with ABR rate control give different bytes per run
    /// (measured); the generator renders several videos at once instead. Preset ultrafast with two
    /// B-frames (decode order ≠ presentation order): a 60 s video costs ~35 CPU-seconds, not ~110
    /// as with veryfast.
    public func renderVideo(index: Int, seconds: Double, mbps: Int = SynthOptions.defaultVideoMbps,
                            to path: String) throws(SynthError) {
        var r = SeededRandom(seed: seed, stream: "video/\(index)")
        let freq = r.int(in: 220...880), h = r.int(in: 0...359)
        let t = String(format: "%.3f", seconds)
        try run(["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30",
                 "-f", "lavfi", "-i", "sine=frequency=\(freq):sample_rate=48000",
                 "-filter_complex", "[0:v]hue=h=\(h),noise=alls=12:allf=t+u:all_seed=\(r.int(in: 1...1_000_000))[v]",
                 "-map", "[v]", "-map", "1:a", "-t", t,
                 "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-b:v", "\(mbps)M", "-maxrate", "\(mbps)M", "-bufsize", "\(2 * mbps)M",
                 "-pix_fmt", "yuv420p", "-threads", "1",
                 "-c:a", "aac", "-b:a", "128k", "-ac", "1", "-movflags", "+faststart",
                 "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", path])
    }
}
