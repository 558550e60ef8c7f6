import C2PA
import CaptureFormat
import Foundation
import Ground

/// The signed pose trace (`context.poseTrace` of the capture record) drawn as an inline SVG
/// line plot: gyroscope x/y/z in rad/s against milliseconds from the shutter.
public enum PoseTracePlot {
    /// The trace read from a delivery file's active manifest.
    public struct Trace: Sendable, Equatable {
        public var rateHz: Double
        public var startOffsetMs: Int
        /// Per sample `[gx, gy, gz]` in rad/s.
        public var gyro: [[Double]]

        public init(rateHz: Double, startOffsetMs: Int, gyro: [[Double]]) {
            self.rateHz = rateHz
            self.startOffsetMs = startOffsetMs
            self.gyro = gyro
        }

        public init(_ trace: PoseTrace) {
            self.init(rateHz: trace.rateHz, startOffsetMs: trace.startOffsetMs,
                      gyro: trace.samples.map { row in row.prefix(3).map { Double($0) * trace.gyroScale } })
        }

        /// Reads the capture record assertion of the file's active manifest; nil when the file
        /// has none, it does not decode, or it carries no trace.
        public init?(deliveryFile path: String) {
            guard let source = try? FileByteSource(path: path),
                  let head = try? source.read(at: 0, count: 12) else { return nil }
            let lookup: ManifestLookup?
            if head.starts(with: [0xFF, 0xD8]) {
                lookup = try? JPEGContainer.manifest(in: source)
            } else if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) {
                lookup = try? BMFFContainer.manifest(in: source)
            } else {
                lookup = nil
            }
            guard case .found(let location)? = lookup,
                  let store = try? ManifestStore(parsing: location.storeBytes),
                  let box = store.activeManifest?.assertion(labelled: CaptureRecord.assertionLabel),
                  let cbor = try? Manifest.cborContent(of: box),
                  let record = try? CaptureRecord(cbor: cbor),
                  let trace = record.poseTrace, trace.count >= 2 else { return nil }
            self.init(trace)
        }
    }

    public static let width = 640.0
    public static let height = 220.0

    /// An SVG element (no external references) plotting the three gyro axes.
    public static func svg(_ trace: Trace, id: String) -> String {
        let margin = (left: 56.0, right: 12.0, top: 12.0, bottom: 30.0)
        let plotW = width - margin.left - margin.right, plotH = height - margin.top - margin.bottom
        let n = trace.gyro.count
        let step = trace.rateHz > 0 ? 1000.0 / trace.rateHz : 1
        let t0 = Double(trace.startOffsetMs), t1 = t0 + step * Double(max(n - 1, 1))
        let peak = max(trace.gyro.flatMap { $0.map(abs) }.max() ?? 0, 1e-6)
        func x(_ i: Int) -> Double { margin.left + plotW * (Double(i) * step) / (t1 - t0) }
        func y(_ v: Double) -> Double { margin.top + plotH / 2 - (v / peak) * (plotH / 2) }
        let colors = ["#c0392b", "#1e8449", "#1f4e9c"]
        var s = """
        <svg id="\(id)" class="pose-plot" xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
        viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="Signed pose trace, gyroscope rad/s">
        <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff" stroke="#999999"/>
        <line x1="\(margin.left)" y1="\(y(0))" x2="\(width - margin.right)" y2="\(y(0))" stroke="#bbbbbb"/>
        """
        if t0 <= 0, t1 >= 0 {
            let xs = margin.left + plotW * (0 - t0) / (t1 - t0)
            s += "<line x1=\"\(f(xs))\" y1=\"\(margin.top)\" x2=\"\(f(xs))\" y2=\"\(margin.top + plotH)\" stroke=\"#666666\" stroke-dasharray=\"4 3\"/>"
            s += "<text x=\"\(f(xs + 3))\" y=\"\(margin.top + 10)\" font-size=\"10\" fill=\"#444444\">shutter</text>"
        }
        for axis in 0..<3 {
            let pts = trace.gyro.enumerated().compactMap { i, row in row.count > axis ? "\(f(x(i))),\(f(y(row[axis])))" : nil }
            s += "<polyline fill=\"none\" stroke=\"\(colors[axis])\" stroke-width=\"2\" points=\"\(pts.joined(separator: " "))\"/>"
        }
        s += "<text x=\"4\" y=\"\(f(y(peak) + 4))\" font-size=\"10\" fill=\"#444444\">+\(f(peak))</text>"
        s += "<text x=\"4\" y=\"\(f(y(-peak)))\" font-size=\"10\" fill=\"#444444\">−\(f(peak))</text>"
        s += "<text x=\"\(margin.left)\" y=\"\(height - 8)\" font-size=\"10\" fill=\"#444444\">\(Int(t0)) ms</text>"
        s += "<text x=\"\(width - margin.right - 60)\" y=\"\(height - 8)\" font-size=\"10\" fill=\"#444444\">\(Int(t1)) ms</text>"
        for (axis, name) in ["gx", "gy", "gz"].enumerated() {
            s += "<text x=\"\(Int(margin.left) + 120 + axis * 50)\" y=\"\(height - 8)\" font-size=\"11\" fill=\"\(colors[axis])\">\(name)</text>"
        }
        return s + "</svg>"
    }

    static func f(_ v: Double) -> String { String(format: "%.2f", v) }
}
