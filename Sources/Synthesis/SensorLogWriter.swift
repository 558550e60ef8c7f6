import Foundation

/// Writes the 100 Hz sensor log (docs/capture-format.md §5.3): the anchor line, IMU lines,
/// barometer `relAlt`/`press` lines every 0.5 s and fused location fixes every 1 s, labelled
/// `fused-cllocation`. Numbers are printed with fixed decimals so the bytes repeat for a seed.
public struct SensorLogWriter: Sendable {
    public var session: String
    public var frameClockEpochNs: UInt64
    /// The anchor's wall clock, `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public var wallClock: String
    public var seconds: Double
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double

    public init(session: String, frameClockEpochNs: UInt64, wallClock: String, seconds: Double,
                latitude: Double, longitude: Double, altitude: Double) {
        self.session = session
        self.frameClockEpochNs = frameClockEpochNs
        self.wallClock = wallClock
        self.seconds = seconds
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    static func f(_ v: Double, _ places: Int) -> String { String(format: "%.\(places)f", v) }

    /// The log's bytes and the inter-sample interval coefficient of variation of its IMU lines.
    public func render(random: inout SeededRandom) -> (bytes: [UInt8], intervalCv: Double) {
        var s = "{\"type\":\"anchor\",\"session\":\"\(session)\",\"frameClockEpochNs\":\(frameClockEpochNs),"
            + "\"wallClock\":\"\(wallClock)\",\"imuRateHz\":100}\n"
        let n = Int(seconds * 100)
        var times: [Double] = []
        var q = (w: 0.99, x: 0.01, y: -0.02, z: 0.003)
        for i in 1...max(1, n) {
            let t = Double(i) * 0.01 + random.double(in: -0.0004..<0.0004)
            times.append(t)
            let acc = [random.double(in: -0.03..<0.03), -0.98 + random.double(in: -0.02..<0.02), random.double(in: -0.05..<0.05)]
            let gyro = [random.double(in: -0.02..<0.02), random.double(in: -0.02..<0.02), random.double(in: -0.01..<0.01)]
            q.x += gyro[0] * 0.005; q.y += gyro[1] * 0.005; q.z += gyro[2] * 0.005
            let norm = (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
            q = (q.w / norm, q.x / norm, q.y / norm, q.z / norm)
            s += "{\"type\":\"imu\",\"t\":\(Self.f(t, 4)),\"acc\":[\(acc.map { Self.f($0, 4) }.joined(separator: ","))],"
                + "\"gyro\":[\(gyro.map { Self.f($0, 5) }.joined(separator: ","))],"
                + "\"att\":[\(Self.f(q.w, 5)),\(Self.f(q.x, 5)),\(Self.f(q.y, 5)),\(Self.f(q.z, 5))]}\n"
            if i % 50 == 0 {
                s += "{\"type\":\"baro\",\"t\":\(Self.f(t, 4)),\"relAlt\":\(Self.f(random.double(in: -0.3..<0.3), 3)),"
                    + "\"press\":\(Self.f(101.325 - altitude * 0.012 + random.double(in: -0.01..<0.01), 3))}\n"
            }
            if i % 100 == 0 {
                let lat = latitude + random.double(in: -0.00002..<0.00002), lon = longitude + random.double(in: -0.00002..<0.00002)
                s += "{\"type\":\"location\",\"t\":\(Self.f(t, 4)),\"source\":\"fused-cllocation\",\"lat\":\(Self.f(lat, 6)),"
                    + "\"lon\":\(Self.f(lon, 6)),\"hAcc\":\(Self.f(random.double(in: 3..<12), 1)),\"alt\":\(Self.f(altitude, 1)),"
                    + "\"vAcc\":\(Self.f(random.double(in: 2..<6), 1))}\n"
            }
        }
        var intervals: [Double] = []
        for i in 1..<max(1, times.count) { intervals.append(times[i] - times[i - 1]) }
        let mean = intervals.isEmpty ? 0 : intervals.reduce(0, +) / Double(intervals.count)
        let sd = intervals.isEmpty ? 0 : (intervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(intervals.count)).squareRoot()
        let cv = mean > 0 ? (sd / mean * 10_000).rounded() / 10_000 : 0
        return (Array(s.utf8), cv)
    }
}
