// The synthetic records of the query benchmarks (bench/query.sh fills LMDB with them,
// bench/pg.sh PostgreSQL), so both stores hold the same N records: record n is always the same.
// Also the benchmarks' clock and timing loop.
import Foundation
import Ground
import Query

public struct SplitMix {
    public init(state: UInt64) { self.state = state }
    public var state: UInt64
    public mutating func next() -> UInt64 {
        state &+= 0x9e3779b97f4a7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
        z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
        return z ^ (z >> 31)
    }
    public mutating func hex64() -> String {
        (0..<4).map { _ in let h = String(next(), radix: 16); return String(repeating: "0", count: 16 - h.count) + h }.joined()
    }
    /// Uniform in 0..<n.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// True with probability p.
    public mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}

public enum Synthetic {
    public static let fingerprints: [String] = {
        var r = SplitMix(state: 42)
        return (0..<50).map { _ in r.hex64() }
    }()
    static let rungLengths = [4, 7, 10, 13, 16, 19, 24]
    // Share of records whose capture time is known at each rung (year … exact-ms).
    static let rungWeights = [0.02, 0.03, 0.08, 0.07, 0.10, 0.20, 0.50]
    static let sinks: [SidecarSink: Double] = [.audio: 0.7, .sensors: 0.8, .ring: 0.3, .depth: 0.2]
    static let states: [(SidecarState, Double)] = [(.verified, 0.90), (.uncommitted, 0.03), (.mismatch, 0.02),
                                                   (.missing, 0.02), (.failed, 0.01), (.neverRecorded, 0.02)]

    static func pick<T>(_ items: [(T, Double)], _ r: inout SplitMix) -> T {
        var x = Double(r.next() >> 11) / Double(1 << 53)
        for (item, w) in items { if x < w { return item }; x -= w }
        return items[items.count - 1].0
    }

    /// Record `n` of the synthetic archive.
    public static func record(_ n: Int) -> IndexedRecord {
        var r = SplitMix(state: UInt64(n) &* 0x2545f4914f6cdd1d &+ 7)
        let id = ContentID(hex: r.hex64())!  // 64 lowercase hex digits
        let integrity = pick([(Integrity.intact, 0.80), (.tampered, 0.08), (.unsigned, 0.07), (.malformed, 0.05)], &r)
        let signed = integrity == .intact || integrity == .tampered
        // Capture times across 2026, at mixed rungs.
        let day = r.below(365)
        var comps = DateComponents()
        comps.year = 2026
        comps.day = day + 1
        let date = Calendar(identifier: .gregorian).date(from: comps) ?? Date(timeIntervalSince1970: 0)
        let ms = Int64(date.timeIntervalSince1970 * 1000) + Int64(r.below(86_400_000))
        let exact = timestamp(ms: ms)
        let rung = pick(Array(zip(rungLengths, rungWeights)), &r)
        var sidecars: [SidecarSink: SidecarState] = [:]
        if integrity != .malformed {
            for (sink, p) in sinks.sorted(by: { $0.key < $1.key }) where r.chance(p) { sidecars[sink] = pick(states, &r) }
        }
        let blob = ContentID(hex: r.hex64())!
        let report = #"{"path":"dump/\#(n).jpg","integrity":"\#(integrity.rawValue)","statusCodes":{"success":[],"informational":[],"failure":[]}}"#
        return IndexedRecord(
            recordId: id, kind: r.chance(0.7) ? .still : .video, integrity: integrity,
            trust: signed ? (r.chance(0.85) ? .trusted : .untrusted) : nil,
            keyFingerprint: signed ? ContentID(hex: fingerprints[r.below(fingerprints.count)]) : nil,
            captureTime: integrity == .malformed ? nil : String(exact.prefix(rung)),
            tsaTime: nil, ingestTime: "2026-12-01T00:\(String(format: "%02d", n / 20000 % 60)):00Z",
            failureCodes: integrity == .tampered ? [StatusCode.assertionDataHashMismatch] : [], sidecars: sidecars,
            variants: [.init(blobId: blob, size: 3_000_000, sourcePaths: ["dump/DCIM/\(n).jpg"], firstIngested: "2026-12-01T00:00:00Z")],
            files: [.init(role: .audio, relativePath: "evidence/\(n)/audio.m4a", blobId: ContentID(hex: r.hex64())!, size: 400_000)],
            reportJSON: Data(report.utf8))
    }

    static func timestamp(ms: Int64) -> String {
        var t = time_t(ms / 1000)
        var tm = tm()
        gmtime_r(&t, &tm)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1,
                      Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec), Int(ms % 1000))
    }
}

public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs `body` `runs` times; returns (p50, p95, max) in milliseconds and the last result.
public func timeIt<R>(_ runs: Int, _ body: (Int) throws -> R) rethrows -> (p50: Double, p95: Double, max: Double, last: R) {
    var times: [Double] = []
    var last: R? = nil
    for i in 0..<runs {
        let t = now()
        last = try body(i)
        times.append((now() - t) * 1000)
    }
    times.sort()
    return (times[times.count / 2], times[min(times.count - 1, times.count * 95 / 100)], times[times.count - 1], last!)
}
