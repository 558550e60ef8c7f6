import Foundation

extension TimeStampToken {
    /// Reads a TSTInfo `genTime` in the one form RFC 3161 §2.4.2 allows out of X.680's
    /// GeneralizedTime forms: UTC, seconds present, an optional fraction, `Z`:
    ///
    ///     YYYYMMDDhhmmss[.f{1,9}]Z      e.g. 20240806215337Z, 20240806215337.5Z, 20240806215337.123Z
    ///
    /// Each field is bounded (month 1–12, day within the month, hour 0–23, minute and second
    /// 0–59; no leap second), a fraction has 1 to 9 digits (trailing zeros, which DER forbids,
    /// are tolerated: the TSA signed them), and local times, offsets (`+0100`), a comma or a
    /// missing `ss` are refused. Nil when the text is anything else.
    static func generalizedTime(text: some Collection<UInt8>) -> Date? {
        let t = Array(text)
        guard t.count >= 15, t.count <= 25, t.last == UInt8(ascii: "Z") else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for c in t[from..<(from + count)] {
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(c - UInt8(ascii: "0"))
            }
            return v
        }
        guard let year = digits(0, 4), let month = digits(4, 2), let day = digits(6, 2),
              let hour = digits(8, 2), let minute = digits(10, 2), let second = digits(12, 2) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...monthDays[month - 1]).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var fraction = 0.0
        if t.count > 15 {
            let f = t[15..<(t.count - 1)]
            guard t[14] == UInt8(ascii: "."), (1...9).contains(f.count),
                  let v = digits(15, f.count) else { return nil }
            fraction = Double(v) / pow(10, Double(f.count))
        }
        // Days since 1970-01-01 (proleptic Gregorian), no time zone involved.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }
}
