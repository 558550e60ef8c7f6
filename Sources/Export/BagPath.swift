/// A payload or tag path inside a bag, and its encoding in manifest lines.
///
/// RFC 8493 §2.1.3: a manifest line is `checksum SP filepath`, with `filepath` relative to the
/// bag root, `/` as separator, and CR, LF and `%` percent-encoded (`%0D`, `%0A`, `%25`).
public enum BagPath {
    /// Checks that `relative` is a safe relative path (no empty, `.` or `..` component, not
    /// absolute, no NUL) and returns its components.
    public static func components(of relative: String) -> [String]? {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\0") else { return nil }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return parts
    }

    /// The manifest form of a path: `%` → `%25`, CR → `%0D`, LF → `%0A`.
    public static func encode(_ path: String) -> String {
        var out = ""
        for ch in path.unicodeScalars {
            switch ch {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// The inverse of `encode` (other `%` sequences are kept literally, as RFC 8493 asks only
    /// for these three).
    public static func decode(_ text: String) -> String {
        var out = ""
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "%", i + 2 < scalars.count {
                let code = String(String.UnicodeScalarView(scalars[(i + 1)...(i + 2)])).uppercased()
                let mapped: Unicode.Scalar? = switch code {
                case "25": "%"
                case "0D": "\r"
                case "0A": "\n"
                default: nil
                }
                if let mapped {
                    out.unicodeScalars.append(mapped)
                    i += 3
                    continue
                }
            }
            out.unicodeScalars.append(scalars[i])
            i += 1
        }
        return out
    }
}
