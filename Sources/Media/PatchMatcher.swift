/// Integer-offset normalised cross-correlation of a patch grid along rows (the parallax card's
/// matcher). Deterministic: same rasters, same matches.
struct PatchMatcher {
    let a: GrayImage
    let b: GrayImage

    init(primary: GrayImage, second: GrayImage) {
        a = primary
        b = second
    }

    struct Result {
        var grid = 0
        var textured = 0
        var matches: [ParallaxMeasurement.PatchMatch] = []
    }

    func matchGrid() -> Result {
        let r = Parallax.patchSize / 2
        var out = Result()
        var y = r
        while y + r < a.height {
            var x = r
            while x + r < a.width {
                out.grid += 1
                if let m = match(x: x, y: y, r: r, textured: &out.textured) { out.matches.append(m) }
                x += Parallax.gridStep
            }
            y += Parallax.gridStep
        }
        return out
    }

    /// Best offset for the patch centred at (x, y), or nil when flat, weak, ambiguous, or at the
    /// edge of the feasible search range (the true peak may lie beyond it).
    func match(x: Int, y: Int, r: Int, textured: inout Int) -> ParallaxMeasurement.PatchMatch? {
        let (meanA, normA) = stats(a, x: x, y: y, r: r)
        let count = Double((2 * r + 1) * (2 * r + 1))
        guard (normA / count).squareRoot() >= Parallax.minPatchStdDev else { return nil }
        textured += 1
        let lo = max(-Parallax.searchWindow, r - x), hi = min(Parallax.searchWindow, b.width - 1 - r - x)
        guard lo < hi else { return nil }
        var scores: [Double] = []
        for d in lo...hi { scores.append(ncc(x: x, y: y, r: r, d: d, meanA: meanA, normA: normA)) }
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }) else { return nil }
        guard best > 0, best < scores.count - 1, scores[best] >= Parallax.minNCC else { return nil }
        let rival = scores.indices.filter { abs($0 - best) >= 2 }.map { scores[$0] }.max() ?? -1
        guard scores[best] - rival >= Parallax.minPeakMargin else { return nil }
        let ncc = (scores[best] * 1000).rounded() / 1000
        return .init(x: x, y: y, disparityPx: lo + best, ncc: ncc)
    }

    /// Mean and sum of squared deviations of the patch.
    func stats(_ img: GrayImage, x: Int, y: Int, r: Int) -> (Double, Double) {
        var sum = 0.0, sq = 0.0
        for yy in (y - r)...(y + r) {
            for xx in (x - r)...(x + r) {
                let v = Double(img[xx, yy])
                sum += v
                sq += v * v
            }
        }
        let n = Double((2 * r + 1) * (2 * r + 1))
        let mean = sum / n
        return (mean, max(0, sq - n * mean * mean))
    }

    func ncc(x: Int, y: Int, r: Int, d: Int, meanA: Double, normA: Double) -> Double {
        let (meanB, normB) = stats(b, x: x + d, y: y, r: r)
        guard normA > 0, normB > 0 else { return -1 }
        var cross = 0.0
        for yy in (y - r)...(y + r) {
            for xx in (x - r)...(x + r) {
                cross += (Double(a[xx, yy]) - meanA) * (Double(b[xx + d, yy]) - meanB)
            }
        }
        return cross / (normA * normB).squareRoot()
    }
}
