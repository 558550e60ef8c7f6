/// Text output made safe for a terminal and for line-based readers: a name that holds a
/// newline (a folder called `x⏎sidecar audio verified`) must not print a second, forged line,
/// and escape sequences must not reach the terminal.
///
/// `escape` writes LF, CR and TAB as `\n`, `\r`, `\t`; every other C0 control and DEL as
/// `\xHH`; C1 controls (U+0080–U+009F), the line and paragraph separators (U+2028, U+2029)
/// and the bidirectional embedding, override and isolate controls (U+202A–U+202E,
/// U+2066–U+2069) as `\u{HHHH}`. Everything else, a backslash included, is kept as it is, so
/// ordinary names print unchanged; the JSON forms stay the lossless ones.
public enum TerminalText {
    public static func escape(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            guard needsEscape(u) else { out.unicodeScalars.append(u); continue }
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                out += u.value < 0x80 ? "\\x" + hex(u.value, digits: 2) : "\\u{" + hex(u.value, digits: 4) + "}"
            }
        }
        return out
    }

    /// An encoded JSON line with the characters JSON allows raw but a terminal acts on (DEL,
    /// C1, U+2028/2029, bidi controls) written as `\uHHHH` escapes: in JSON they can only stand
    /// inside strings, so the value decoded is the same.
    public static func escapeJSON(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: { needsEscape($0) && $0.value >= 0x7F }) else { return line }
        var out = ""
        for u in line.unicodeScalars {
            if needsEscape(u) && u.value >= 0x7F { out += "\\u" + hex(u.value, digits: 4) } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func hex(_ v: UInt32, digits: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
