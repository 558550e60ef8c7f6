/// The rungs of the time ladder, coarsest first. A rung's value is the prefix of the exact-ms
/// UTC string `YYYY-MM-DDTHH:MM:SS.sssZ` of the given length.
public enum TimeRung: Int, Sendable, CaseIterable, Comparable, Codable {
    case year = 0, month, day, hour, minute, second, exactMs

    /// The rung's name as written in claim ids, the index and reports.
    public var name: String {
        switch self {
        case .year: "year"
        case .month: "month"
        case .day: "day"
        case .hour: "hour"
        case .minute: "minute"
        case .second: "second"
        case .exactMs: "exact-ms"
        }
    }

    public init?(name: String) {
        guard let r = TimeRung.allCases.first(where: { $0.name == name }) else { return nil }
        self = r
    }

    /// Length in characters of a value at this rung.
    public var prefixLength: Int {
        switch self {
        case .year: 4
        case .month: 7
        case .day: 10
        case .hour: 13
        case .minute: 16
        case .second: 19
        case .exactMs: 24
        }
    }

    public static func < (a: TimeRung, b: TimeRung) -> Bool { a.rawValue < b.rawValue }
}

/// A capture time known at some rung: a prefix truncation of `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC).
public struct CaptureTime: Hashable, Sendable, CustomStringConvertible {
    public let text: String
    public let rung: TimeRung

    /// Parses a value at any rung; nil when the text is not exactly one rung's shape or a field
    /// is out of range.
    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard let rung = TimeRung.allCases.first(where: { $0.prefixLength == b.count }) else { return nil }
        let template = Array("0000-00-00T00:00:00.000Z".utf8)
        for (i, c) in b.enumerated() {
            if template[i] == 0x30 {
                guard (0x30...0x39).contains(c) else { return nil }
            } else if c != template[i] {
                return nil
            }
        }
        func field(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= b.count else { return nil }
            return b[from..<(from + len)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        if let m = field(5, 2), !(1...12).contains(m) { return nil }
        if let d = field(8, 2), !(1...31).contains(d) { return nil }
        if let h = field(11, 2), h > 23 { return nil }
        if let mi = field(14, 2), mi > 59 { return nil }
        if let s = field(17, 2), s > 60 { return nil }
        self.text = text
        self.rung = rung
    }

    /// This time cut to a coarser (or the same) rung; nil when `rung` is finer than known.
    public func truncated(to rung: TimeRung) -> CaptureTime? {
        guard rung <= self.rung else { return nil }
        return CaptureTime(String(decoding: Array(text.utf8).prefix(rung.prefixLength), as: UTF8.self))
    }

    /// Every rung's value from year to this time's own rung.
    public var ladder: [CaptureTime] {
        TimeRung.allCases.filter { $0 <= rung }.compactMap { truncated(to: $0) }
    }

    /// Whether `other` lies inside this time's span (this is a prefix of it).
    public func contains(_ other: CaptureTime) -> Bool {
        other.rung >= rung && other.text.utf8.starts(with: text.utf8)
    }

    public var description: String { text }
}
