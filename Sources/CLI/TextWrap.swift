/// Wrapping of help text to a terminal's width: words are never split (a word longer than the
/// line stands alone on its own line), continuation lines are indented.
enum TextWrap {
    /// `text` broken into lines of at most `width` characters: the first line starts after
    /// `firstIndent` characters already on it, the others with `indent` spaces.
    static func words(_ words: [String], width: Int, firstIndent: Int, indent: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = firstIndent
        for word in words where !word.isEmpty {
            if line.isEmpty {
                line = word
                used += word.count
            } else if used + 1 + word.count <= width {
                line += " " + word
                used += 1 + word.count
            } else {
                lines.append(line)
                line = word
                used = indent + word.count
            }
        }
        lines.append(line)
        return lines
    }

    /// Paragraphs reflowed to `width`: lines of a paragraph are joined and wrapped again;
    /// blank lines separate paragraphs; a line that starts with a space (a list, a table) is
    /// kept as it is when it fits, else wrapped under its own indentation.
    static func paragraphs(_ text: String, width: Int) -> String {
        var out: [String] = []
        var paragraph: [String] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            out += words(paragraph.joined(separator: " ").split(separator: " ").map(String.init),
                         width: width, firstIndent: 0, indent: 0)
            paragraph = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.isEmpty {
                flush()
                out.append("")
            } else if line.hasPrefix(" ") {
                flush()
                if line.count <= width {
                    out.append(line)
                } else {
                    let lead = line.prefix { $0 == " " }.count
                    let hanging = min(width / 2, lead + 4)
                    let parts = words(line.split(separator: " ").map(String.init), width: width, firstIndent: lead, indent: hanging)
                    out.append(String(repeating: " ", count: lead) + parts[0])
                    out += parts.dropFirst().map { String(repeating: " ", count: hanging) + $0 }
                }
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return out.joined(separator: "\n")
    }
}
