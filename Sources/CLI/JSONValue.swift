import Foundation

/// A JSON value with ordered object keys, for stable JSON Lines output.
public indirect enum JSONValue: Equatable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([(String, JSONValue)])
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded() == b.encoded() }

    /// Compact encoding on one line.
    public func encoded() -> String {
        switch self {
        case .string(let s): return Self.quote(s)
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? String(format: "%.4g", d) : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map { $0.encoded() }.joined(separator: ",") + "]"
        case .object(let pairs): return "{" + pairs.map { Self.quote($0.0) + ":" + $0.1.encoded() }.joined(separator: ",") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Controls, and what a terminal would act on (DEL, C1, line separators, bidi
                // controls): as \u escapes, the value is the same.
                if TerminalText.needsEscape(u) { out += "\\u" + TerminalText.hex(u.value, digits: 4) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
