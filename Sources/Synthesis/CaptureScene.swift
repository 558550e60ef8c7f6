import CaptureFormat
import Foundation

/// The seed-derived facts of one capture: identifiers, time, place, who, and the disclosure
/// claim values. Drawn from the capture's own random stream (`capture/<ordinal>`).
struct CaptureScene: Sendable {
    struct Place: Sendable {
        var lat: Double, lon: Double, country: String, region: String, city: String
        var offsetMinutes: Int, zone: String, mainsHz: Int, altitude: Double
    }

    static let places: [Place] = [
        Place(lat: 52.520008, lon: 13.404954, country: "DE", region: "DE-BE", city: "Berlin", offsetMinutes: 60, zone: "Europe/Berlin", mainsHz: 50, altitude: 34),
        Place(lat: -33.45, lon: -70.66, country: "CL", region: "CL-RM", city: "Santiago", offsetMinutes: -180, zone: "America/Santiago", mainsHz: 50, altitude: 570),
        Place(lat: 35.6762, lon: 139.6503, country: "JP", region: "JP-13", city: "Tokyo", offsetMinutes: 540, zone: "Asia/Tokyo", mainsHz: 50, altitude: 40),
        Place(lat: -1.2921, lon: 36.8219, country: "KE", region: "KE-30", city: "Nairobi", offsetMinutes: 180, zone: "Africa/Nairobi", mainsHz: 50, altitude: 1795),
        Place(lat: 45.764, lon: 4.8357, country: "FR", region: "FR-ARA", city: "Lyon", offsetMinutes: 60, zone: "Europe/Paris", mainsHz: 50, altitude: 173),
        Place(lat: 40.7128, lon: -74.006, country: "US", region: "US-NY", city: "New York", offsetMinutes: -300, zone: "America/New_York", mainsHz: 60, altitude: 10),
    ]
    static let names = ["Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Alan Turing"]
    /// 2026-11-01T08:00:00Z; captures follow 97 s apart (+ up to 60 s), so even 20,000 captures
    /// stay in November 2026, before the certificates' and the machine's "now".
    static let baseEpoch: Double = 1_793_520_000

    var ordinal: Int
    var sessionId: String
    var manifestLabel: String
    var instanceID: String
    var masterSeed: [UInt8]
    /// Capture instant (ms precision) and the record's time at `timeRung`.
    var epochMs: Int64
    var timeRung: TimeRung
    var place: Place?
    var lat: Double, lon: Double
    var named: String?
    var residualSummary: String?
    var captureToSignatureMs: Int
    var lens: LensRecord?
    var random: SeededRandom

    init(seed: UInt64, ordinal: Int, coarseTime: Bool, fault: Bool = false) {
        var r = SeededRandom(seed: seed, stream: "capture/\(ordinal)")
        self.ordinal = ordinal
        sessionId = r.uuid()
        manifestLabel = "urn:c2pa:" + r.uuid()
        instanceID = "xmp:iid:" + r.uuid()
        masterSeed = r.bytes(32)
        epochMs = Int64(CaptureScene.baseEpoch * 1000) + Int64(ordinal) * 97_000 + Int64(r.int(in: 0...60_000))
        timeRung = coarseTime ? .minute : .exactMs
        let noLocation = !fault && ordinal % 11 == 5
        let p = CaptureScene.places[r.int(in: 0...(CaptureScene.places.count - 1))]
        place = noLocation ? nil : p
        lat = p.lat + r.double(in: -0.02..<0.02)
        lon = p.lon + r.double(in: -0.02..<0.02)
        let name = CaptureScene.names[r.int(in: 0...(CaptureScene.names.count - 1))]
        named = !fault && ordinal % 4 == 0 ? name : nil
        residualSummary = ordinal % 2 == 0 ? "imu-residual-rms=" + String(format: "%.4f", r.double(in: 0.002..<0.03)) : nil
        captureToSignatureMs = r.int(in: 1200...3800)
        lens = ordinal % 3 == 0 ? LensRecord(camera: "wide", focalLengthMm: 6.86) : nil
        random = r
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`.
    var exactTime: String { CaptureScene.iso(epochMs) }
    var captureTime: CaptureTime? { CaptureTime(exactTime)?.truncated(to: timeRung) }
    var date: Date { Date(timeIntervalSince1970: Double(epochMs) / 1000) }

    static func components(_ ms: Int64) -> (y: Int, mo: Int, d: Int, h: Int, mi: Int, s: Int, ms: Int) {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC") ?? cal.timeZone
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                   from: Date(timeIntervalSince1970: Double(ms / 1000)))
        return (c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0, Int(ms % 1000))
    }

    static func iso(_ ms: Int64) -> String {
        let c = components(ms)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.y, c.mo, c.d, c.h, c.mi, c.s, c.ms)
    }

    /// `IMG_yyyyMMdd_HHmmss_SSS` / `VID_…`.
    func deliveryName(video: Bool) -> String {
        let c = CaptureScene.components(epochMs)
        return String(format: "%@_%04d%02d%02d_%02d%02d%02d_%03d.%@", video ? "VID" : "IMG", c.y, c.mo, c.d, c.h, c.mi, c.s, c.ms,
                      video ? "mp4" : "jpg")
    }

    /// EXIF `YYYY:MM:DD HH:MM:SS`.
    var exifDateTime: String {
        let c = CaptureScene.components(epochMs)
        return String(format: "%04d:%02d:%02d %02d:%02d:%02d", c.y, c.mo, c.d, c.h, c.mi, c.s)
    }

    /// The disclosure claim values (claimId → value); ladder claims left out are declared never-recorded.
    func claimValues(keyFingerprint: String, deviceModel: String, sensorsPresent: [String]) -> [String: String] {
        var v: [String: String] = [:]
        if let p = place {
            v["location.grid-region"] = ClaimSchema.gridRegion(latitude: lat, longitude: lon)
            v["location.country"] = p.country
            v["location.region"] = p.region
            v["location.city"] = p.city
            v["location.exact"] = String(format: "%.6f,%.6f", lat, lon)
        }
        if let t = captureTime {
            for c in ContextClaim.timeLadder(t) { v[c.claimId] = c.value }
        }
        v["identity.key-fingerprint"] = keyFingerprint
        v["identity.device-model"] = deviceModel
        if let n = named { v["identity.named"] = n }
        v["sensor.present"] = sensorsPresent.sorted().joined(separator: ",")
        if let s = residualSummary { v["sensor.residual-summary"] = s }
        v["context.project"] = "exhibit-synth"
        return v
    }
}
