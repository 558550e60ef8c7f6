/// The recomputed on-device parallax measurement: matched-patch count and median disparity,
/// or `insufficient` with its reason and no numbers. No planar fit, no score, no threshold.
public struct ParallaxMeasurement: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case measured, insufficient }

    public enum Reason: String, Codable, Sendable {
        /// A view could not be decoded.
        case tooFewDecodableFrames = "too-few-decodable-frames"
        /// Fewer than `Parallax.minMatchedPatches` patches matched.
        case tooFewMatchedPatches = "too-few-matched-patches"
        /// The disparity the baseline can produce (calibration), or the one measured, is within
        /// the ±1 px integer-matching noise floor.
        case baselineBelowMatcherNoise = "baseline-below-matcher-noise"
    }

    public var state: State
    public var reason: Reason?
    /// Why, in words (the decoder's error, the counts, the calibration figures).
    public var detail: String?
    /// Patches matched (NCC peak accepted); nil when insufficient.
    public var matchedPatches: Int?
    /// Median horizontal disparity in analysis-raster pixels (second view x − primary x);
    /// the mean of the two middle values for an even count. Nil when insufficient.
    public var medianDisparityPx: Double?
    /// Grid patches with enough texture to try.
    public var texturedPatches: Int
    /// The grid size.
    public var gridPatches: Int
    /// Fixed method parameters, stated with every answer.
    public var raster: String = "96x64"
    public var searchWindowPx: Int = Parallax.searchWindow
    public var noiseFloorPx: Double = 1
    /// Each accepted match (grid position, disparity, correlation): the numbers behind the
    /// median, for people who want to look. Empty when insufficient.
    public var matches: [PatchMatch]

    public struct PatchMatch: Codable, Sendable, Equatable {
        /// Patch centre on the primary view's analysis raster.
        public var x: Int
        public var y: Int
        public var disparityPx: Int
        public var ncc: Double
    }

    static func insufficient(_ reason: Reason, _ detail: String, textured: Int = 0, grid: Int = 0) -> ParallaxMeasurement {
        ParallaxMeasurement(state: .insufficient, reason: reason, detail: detail, matchedPatches: nil,
                            medianDisparityPx: nil, texturedPatches: textured, gridPatches: grid, matches: [])
    }
}

/// The second view's calibration as the record states it (`context.secondView`).
public struct SecondViewCalibration: Codable, Sendable, Equatable {
    public var baselineMm: Double
    public var focalLengthPx: Double
    public var imageWidth: Int
    public init(baselineMm: Double, focalLengthPx: Double, imageWidth: Int) {
        self.baselineMm = baselineMm
        self.focalLengthPx = focalLengthPx
        self.imageWidth = imageWidth
    }

    /// Disparity on the 96-wide raster for a point at `depthM` metres:
    /// focalLengthPx × (96 / imageWidth) × baseline / depth.
    public func disparityPx(atDepthM depthM: Double) -> Double {
        guard imageWidth > 0, depthM > 0 else { return 0 }
        return focalLengthPx * (Double(Parallax.rasterWidth) / Double(imageWidth)) * (baselineMm / 1000) / depthM
    }
}
