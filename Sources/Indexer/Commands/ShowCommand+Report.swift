/// A JSON value as decoded from a stored report, for `show`'s text form: every leaf becomes a
/// `path value` line, object keys sorted.
indirect enum ReportTree: Decodable {
    case bool(Bool), int(Int64), double(Double), string(String), null
    case array([ReportTree]), object([String: ReportTree])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([ReportTree].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: ReportTree].self))
        }
    }

    /// `path value` lines for every leaf (an empty array or object prints as `[]` / `{}` so
    /// absence stays visible; newlines in strings are written `\\n`).
    func lines(path: String) -> [String] {
        switch self {
        case .bool(let b): ["\(path) \(b)"]
        case .int(let i): ["\(path) \(i)"]
        case .double(let d): ["\(path) \(d)"]
        case .string(let s): ["\(path) \(s.replacingOccurrences(of: "\n", with: "\\n"))"]
        case .null: ["\(path) null"]
        case .array(let a): a.isEmpty ? ["\(path) []"] : a.enumerated().flatMap { $1.lines(path: "\(path)[\($0)]") }
        case .object(let o): o.isEmpty ? ["\(path) {}"] : o.keys.sorted().flatMap { k in o[k].map { $0.lines(path: "\(path).\(k)") } ?? [] }
        }
    }
}
