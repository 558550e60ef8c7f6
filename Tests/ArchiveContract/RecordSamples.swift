import Foundation
import Ground
import Query

/// Shared by the archive contract (Tests/ArchiveContract) and ArchivePostgresTests.
/// Seeded records spanning every filter's values: fingerprints sharing prefixes, capture times
/// at every rung around a few days and hours, every sidecar state on five sinks.
public enum RecordSamples {
    public struct Rand {
        public var state: UInt64
        public init(state: UInt64) { self.state = state }
        public mutating func next() -> UInt64 {
            state &+= 0x9e3779b97f4a7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
            z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
            return z ^ (z >> 31)
        }
        public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    /// Six fingerprints; the first three share their first three digits, the next two their first.
    public static let fingerprints: [String] = {
        let base = (0..<6).map { hexID(9000 + $0) }
        return [base[0], "\(base[0].prefix(3))" + base[1].dropFirst(3), "\(base[0].prefix(3))" + base[2].dropFirst(3),
                base[3], "\(base[3].prefix(1))" + base[4].dropFirst(1), base[5]]
    }()
    public static let exactTimes = ["2026-11-30T14:05:06.789Z", "2026-11-30T14:59:59.999Z", "2026-11-30T15:00:00.000Z",
                             "2026-11-29T14:05:06.000Z", "2026-12-01T00:00:00.001Z", "2025-11-30T14:05:06.789Z"]
    public static let rungs = [4, 7, 10, 13, 16, 19, 24]
    public static let sinks: [SidecarSink] = [.audio, .sensors, .ring, .depth, .secondView]
    public static let states: [SidecarState] = [.verified, .mismatch, .missing, .uncommitted, .failed, .neverRecorded]

    /// `count` sample records whose analyses state cycles through pending, done and none.
    public static func analysed(_ count: Int, seed: UInt64) -> [IndexedRecord] {
        (0..<count).map { i in
            var r = record(i, seed: seed)
            switch i % 3 {
            case 0: r.analyses = .pending(deliveryPath: "/dump/captures/\(i)/IMG.jpg")
            case 1: r.analyses = RecordAnalyses(state: .done, tool: "exhibit-archive test", libraries: ["libjpeg-turbo": "2.1.5"])
            default: r.analyses = nil
            }
            return r
        }
    }

    public static func record(_ n: Int, seed: UInt64 = 1) -> IndexedRecord {
        var r = Rand(state: UInt64(n) &* 31 &+ seed)
        let integrity = r.pick([Integrity.intact, .intact, .intact, .tampered, .unsigned, .malformed])
        let signed = integrity == .intact || integrity == .tampered
        var sidecars: [SidecarSink: SidecarState] = [:]
        for sink in sinks where r.below(3) == 0 { sidecars[sink] = r.pick(states) }
        let time: String? = r.below(8) == 0 ? nil : String(r.pick(exactTimes).prefix(r.pick(rungs)))
        let variants = (0..<(1 + r.below(2))).map { v in
            IndexedRecord.Variant(blobId: contentID(n, salt: 500 + UInt64(v) + seed), size: UInt64(100 + v),
                                  sourcePaths: ["dump/\(n)-\(v).jpg"], firstIngested: "2026-12-01T10:00:00.000Z")
        }
        return IndexedRecord(
            recordId: contentID(n, salt: seed), kind: r.pick([MediaKind.still, .still, .video, .unknown]), integrity: integrity,
            trust: signed ? r.pick([Trust.trusted, .trusted, .untrusted]) : nil,
            keyFingerprint: signed ? ContentID(hex: r.pick(fingerprints)) : nil, captureTime: time,
            tsaTime: r.below(2) == 0 ? "2026-11-30T14:05:07Z" : nil,
            ingestTime: r.pick(["2026-12-01T10:00:00.000Z", "2026-12-02T09:30:00.000Z", "2026-12-02T23:59:59.999Z"]),
            failureCodes: integrity == .tampered ? ["assertion.dataHash.mismatch"] : [], sidecars: sidecars,
            variants: variants,
            files: [.init(role: .audio, relativePath: "audio \(n).m4a", blobId: contentID(n, salt: 900), size: 5)],
            reportJSON: Data("{\"record\":\(n),\"note\":\"ünï\\n\"}".utf8))
    }

    /// Filter values for each field (nil = not filtered), including values that select nothing.
    public static let keyValues: [String?] = [nil, fingerprints[0], String(fingerprints[0].prefix(3)), String(fingerprints[3].prefix(1)),
                                       String(fingerprints[5].prefix(10)), String(repeating: "0", count: 64)]
    public static let timeValues: [String?] = [nil, "2026", "2026-11", "2026-11-30", "2026-11-30T14", "2026-11-30T14:05",
                                        "2026-11-30T14:05:06", "2026-11-30T14:05:06.789Z", "2026-11-3", "2025", "2027", "2"]
    public static let sidecarValues: [(SidecarState?, SidecarSink?)] = [(nil, nil), (.uncommitted, nil), (.uncommitted, .audio),
                                                                (nil, .ring), (.verified, .depth), (.mismatch, .secondView), (.failed, nil)]
    public static let integrityValues: [Integrity?] = [nil, .intact, .tampered, .malformed]
    public static let kindValues: [MediaKind?] = [nil, .video, .unknown]
    public static let trustValues: [Trust?] = [nil, .trusted, .untrusted]
    public static let ingestValues: [String?] = [nil, "2026-12-02", "2026-12-01T10:00:00.000Z", "2027"]

    /// `count` filters drawn from the product of the values above (seeded), after every single filter.
    public static func filters(_ count: Int, seed: UInt64 = 7) -> [RecordFilter] {
        var out: [RecordFilter] = []
        for k in keyValues { out.append(RecordFilter(keyPrefix: k)) }
        for t in timeValues { out.append(RecordFilter(timePrefix: t)) }
        for (s, sink) in sidecarValues { out.append(RecordFilter(sidecarState: s, sink: sink)) }
        for v in integrityValues { out.append(RecordFilter(integrity: v)) }
        for v in kindValues { out.append(RecordFilter(kind: v)) }
        for v in trustValues { out.append(RecordFilter(trust: v)) }
        for v in ingestValues { out.append(RecordFilter(ingestPrefix: v)) }
        var r = Rand(state: seed)
        for _ in 0..<count {
            let (s, sink) = r.pick(sidecarValues)
            out.append(RecordFilter(keyPrefix: r.pick(keyValues), timePrefix: r.pick(timeValues), integrity: r.pick(integrityValues),
                                    sidecarState: s, sink: sink, kind: r.pick(kindValues), trust: r.pick(trustValues),
                                    ingestPrefix: r.below(4) == 0 ? r.pick(ingestValues) : nil))
        }
        return out
    }
}

/// `hexID(n, salt:)` as an ID.
public func contentID(_ n: Int, salt: UInt64 = 0) -> ContentID { ContentID(hex: hexID(n, salt: salt))! }

/// A deterministic 64-hex-digit ID, distinct for distinct `n` and `salt`.
public func hexID(_ n: Int, salt: UInt64 = 0) -> String {
    var r = RecordSamples.Rand(state: UInt64(n) &* 0x9e3779b97f4a7c15 &+ salt &+ 1)
    return (0..<4).map { _ in
        let h = String(r.next(), radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h
    }.joined()
}
