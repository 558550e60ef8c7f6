/// A `--time` value: a non-empty prefix of `YYYY-MM-DDTHH:MM:SS.sssZ` that some real instant
/// continues. `2026-13`, `2026-02-30`, `2026-04-31`, `2025-02-29`, `2026-11-30T24` and
/// `…T14:60` are impossible (no completion is a date), and so are the partial fields that
/// cannot be completed into one (`2026-2`, `2026-02-3`, `…T3`, `…T14:6`).
enum TimePrefix {
    static let template = Array("0000-00-00T00:00:00.000Z".utf8)

    /// Whether `t` has the shape of a prefix of the template (digits where it has digits).
    static func hasShape(_ t: String) -> Bool {
        let b = Array(t.utf8)
        guard (1...template.count).contains(b.count) else { return false }
        for (i, c) in b.enumerated() {
            if template[i] == 0x30 { guard (0x30...0x39).contains(c) else { return false } } else if c != template[i] { return false }
        }
        return true
    }

    /// Whether `t` has the shape and some completion of it is a valid UTC date and time.
    static func isPossible(_ t: String) -> Bool {
        guard hasShape(t) else { return false }
        let d = Array(t.utf8).map { Int($0) - 0x30 }
        /// The digits of the field at `range` that `t` holds (fewer when it stops inside it).
        func field(_ range: Range<Int>) -> [Int] { range.filter { $0 < d.count }.map { d[$0] } }
        /// A two-digit field: complete and in `lo...hi`, or its first digit can start such a value.
        func fits(_ digits: [Int], _ lo: Int, _ hi: Int) -> Bool {
            switch digits.count {
            case 0: return true
            case 1: return digits[0] * 10 <= hi && digits[0] * 10 + 9 >= lo
            default: return (lo...hi).contains(digits[0] * 10 + digits[1])
            }
        }
        let year = field(0..<4), month = field(5..<7), day = field(8..<10)
        guard fits(month, 1, 12) else { return false }
        var lastDay = 31
        if month.count == 2 {
            let m = month[0] * 10 + month[1]
            let y = year.reduce(0) { $0 * 10 + $1 }
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
            lastDay = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        }
        return fits(day, 1, lastDay) && fits(field(11..<13), 0, 23) && fits(field(14..<16), 0, 59) && fits(field(17..<19), 0, 59)
    }
}
