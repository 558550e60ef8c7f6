import Crypto
import Ground

/// Recomputes the capture app's parallax measurement (seed: "Parallax, measured on-device"):
/// both views decoded and reduced to 96 × 64 grayscale, a grid of patches of the primary view
/// matched in the second view by normalised cross-correlation at integer horizontal offsets
/// within ±14 px, and the matched-patch count and median disparity reported.
///
/// Assumptions: both views are rectified to the same raster (capture-format §4.7), so true
/// correspondences lie on the same row; integer matching gives about ±1 px noise per patch.
public enum Parallax {
    public static let rasterWidth = 96
    public static let rasterHeight = 64
    public static let searchWindow = 14
    /// Patch side (odd) and grid step on the analysis raster.
    public static let patchSize = 9
    public static let gridStep = 8
    /// A patch is tried only when its gray levels vary (standard deviation ≥ this).
    public static let minPatchStdDev = 3.0
    /// A match is accepted when its NCC peak reaches this and is clearly the best.
    public static let minNCC = 0.6
    public static let minPeakMargin = 0.05
    public static let minMatchedPatches = 8
    /// Nearest depth (m) a phone camera focuses at: a baseline whose disparity there is within
    /// the noise floor cannot resolve any depth.
    public static let nearestDepthM = 0.1

    /// `primaryName` / `secondName`: the files' names, which let libavformat pick the demuxer
    /// by extension instead of probing the whole file in doubling rounds (~0.8 ms a still).
    public static func measure(primary: any ByteSource, second: any ByteSource,
                               calibration: SecondViewCalibration? = nil,
                               primaryName: String = "", secondName: String = "") -> ParallaxMeasurement {
        if let c = calibration, c.disparityPx(atDepthM: nearestDepthM) <= 1 {
            return .insufficient(.baselineBelowMatcherNoise,
                                 "calibration: \(c.disparityPx(atDepthM: nearestDepthM)) px at \(nearestDepthM) m")
        }
        let a: GrayImage, b: GrayImage
        do {
            a = try primaryRaster(primary, name: primaryName)
        } catch {
            return .insufficient(.tooFewDecodableFrames, "primary view: \(error.code)")
        }
        do {
            b = try GrayImage.decode(source: second, name: secondName, width: rasterWidth, height: rasterHeight)
        } catch {
            return .insufficient(.tooFewDecodableFrames, "second view: \(error.code)")
        }
        return measure(primary: a, second: b)
    }

    /// The primary view's raster. A JPEG is decoded once, at the scale that also serves its
    /// thumbnail, and the planes are left in `StillPictureMemo` under the bytes' SHA-256 for
    /// `Thumbnail.make(…, contentID:)` (issue 13: one decode per JPEG per capture).
    static func primaryRaster(_ source: any ByteSource, name: String) throws(MediaError) -> GrayImage {
        guard StillPicture.isJPEG(source) else {
            return try GrayImage.decode(source: source, name: name, width: rasterWidth, height: rasterHeight)
        }
        let jpeg = try StillPicture.bytes(of: source)
        guard let planes = try StillPicture.decodeDelivery(jpeg) else {
            return try GrayImage.decodeWithLibAV(source: source, name: name, width: rasterWidth, height: rasterHeight)
        }
        // The bytes' SHA-256: the one their source was proved to have (a blob the store re-hashed
        // on read: analyze), else computed here.
        StillPictureMemo.put((source as? MemoryByteSource)?.contentID ?? ContentID.sha256(of: jpeg), planes)
        return try GrayImage.raster(from: planes, width: rasterWidth, height: rasterHeight)
    }

    public static func measure(primaryPath: String, secondPath: String,
                               calibration: SecondViewCalibration? = nil) -> ParallaxMeasurement {
        let p: FileByteSource, s: FileByteSource
        do { p = try FileByteSource.media(primaryPath) } catch {
            return .insufficient(.tooFewDecodableFrames, "primary view: \(error.code)")
        }
        do { s = try FileByteSource.media(secondPath) } catch {
            return .insufficient(.tooFewDecodableFrames, "second view: \(error.code)")
        }
        return measure(primary: p, second: s, calibration: calibration, primaryName: primaryPath, secondName: secondPath)
    }

    /// The measurement over two analysis rasters (same size).
    public static func measure(primary a: GrayImage, second b: GrayImage) -> ParallaxMeasurement {
        guard a.width == b.width, a.height == b.height else {
            return .insufficient(.tooFewDecodableFrames, "views differ in size")
        }
        let result = PatchMatcher(primary: a, second: b).matchGrid()
        let grid = result.grid, textured = result.textured
        guard result.matches.count >= minMatchedPatches else {
            return .insufficient(.tooFewMatchedPatches,
                                 "\(result.matches.count) of \(textured) textured patches matched (grid \(grid))",
                                 textured: textured, grid: grid)
        }
        let d = result.matches.map(\.disparityPx).sorted()
        let n = d.count
        let median = n % 2 == 1 ? Double(d[n / 2]) : Double(d[n / 2 - 1] + d[n / 2]) / 2
        guard abs(median) > 1 else {
            return .insufficient(.baselineBelowMatcherNoise, "median disparity \(median) px is within ±1 px",
                                 textured: textured, grid: grid)
        }
        return ParallaxMeasurement(state: .measured, reason: nil, detail: nil, matchedPatches: n,
                                   medianDisparityPx: median, texturedPatches: textured, gridPatches: grid,
                                   matches: result.matches)
    }
}
