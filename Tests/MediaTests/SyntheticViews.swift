import Ground

@testable import Media
import TestLiterals

/// Stereo pairs with known disparity for the parallax tests: a smooth random texture (value
/// noise, deterministic), the second view the same texture shifted horizontally per row band.
/// Made at 4× the analysis raster (384 × 256), so a shift of 4·k px becomes k px at 96 × 64.
enum SyntheticViews {
    static let width = 384, height = 256, margin = 96

    /// Value noise: random levels on a 12 px and a 5 px lattice, bilinearly interpolated.
    static func texture(seed: UInt64) -> [[Double]] {
        var rng = seed &* 6364136223846793005 &+ 1442695040888963407
        func next() -> Double {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Double(rng >> 33) / Double(1 << 31)
        }
        let w = width + 2 * margin
        var img = [[Double]](repeating: [Double](repeating: 0, count: w), count: height)
        for (step, amp) in [(12, 150.0), (5, 60.0)] {
            let gw = w / step + 2, gh = height / step + 2
            let lattice = (0..<gh).map { _ in (0..<gw).map { _ in next() } }
            for y in 0..<height {
                for x in 0..<w {
                    let fx = Double(x) / Double(step), fy = Double(y) / Double(step)
                    let x0 = Int(fx), y0 = Int(fy), tx = fx - Double(x0), ty = fy - Double(y0)
                    let v = lattice[y0][x0] * (1 - tx) * (1 - ty) + lattice[y0][x0 + 1] * tx * (1 - ty)
                        + lattice[y0 + 1][x0] * (1 - tx) * ty + lattice[y0 + 1][x0 + 1] * tx * ty
                    img[y][x] += amp * v
                }
            }
        }
        return img
    }

    /// The view whose pixel (x, y) shows texture column x + margin − shift(y): content moved
    /// right by shift(y) px relative to the shift-0 view.
    static func view(_ tex: [[Double]], shift: (Int) -> Int) -> GrayImage {
        var px = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let s = shift(y)
            for x in 0..<width {
                px[y * width + x] = UInt8(max(0, min(255, tex[y][x + margin - s] + 20)))
            }
        }
        return GrayImage(width: width, height: height, pixels: px)!
    }

    /// A view as JPEG bytes (through the module's mjpeg encoder, high quality).
    static func jpeg(_ img: GrayImage) throws -> [UInt8] {
        try JPEGEncoder.encode(gray: img, qscale: 2)
    }

    static func blank(level: UInt8 = 128) -> GrayImage {
        GrayImage(width: width, height: height, pixels: [UInt8](repeating: level, count: width * height))!
    }
}
