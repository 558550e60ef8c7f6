import Foundation

/// A man page (roff, `man(7)` macros) made from the same text as `--help`: NAME, SYNOPSIS,
/// DESCRIPTION, OPTIONS, one subsection per subcommand (its overview, discussion, usage,
/// arguments and options), then the program's own sections (EXIT STATUS, ENVIRONMENT, …).
/// View it with `exhibit-archive man | man -l -`.
public struct ManualPage {
    public let program: Program

    public init(program: Program) { self.program = program }

    public func roff() -> String {
        let help = HelpText(program: program)
        let title = program.name.uppercased()
        var s = ".TH \(esc(title)) 1 \"\" \"\(esc(program.name)) \(esc(program.version))\" \"User Commands\"\n"
        s += ".nh\n.ad l\n"   // no hyphenation (option names stay whole), ragged right
        s += ".SH NAME\n\(esc(program.name)) \\- \(esc(firstSentence(program.overview)))\n"
        s += ".SH SYNOPSIS\n"
        if let main = program.main {
            s += synopsis(help.usageWords(main))
        } else {
            s += ".B \(esc(program.name))\n.I subcommand\n[options]\n.br\n"
            s += ".B \(esc(program.name))\n\\-\\-help | \\-\\-version | help\n.I subcommand\n"
        }
        s += ".SH DESCRIPTION\n" + paragraphs(program.overview)
        if let main = program.main, !main.discussion.isEmpty { s += paragraphs(main.discussion) }
        if let main = program.main {
            s += options(program.options(for: main), arguments: main.arguments)
        } else {
            s += ".SH OPTIONS\n" + options(program.rootOptions, arguments: [], heading: false)
            s += ".SH COMMANDS\n"
            for c in program.commands {
                s += ".SS \"\(esc(program.invocation(c)))\"\n" + paragraphs(c.abstract)
                if !c.discussion.isEmpty { s += paragraphs(c.discussion) }
                s += ".PP\n" + synopsis(help.usageWords(c))
                s += options(program.options(for: c), arguments: c.arguments, heading: false)
            }
        }
        for section in program.manualSections {
            s += ".SH \(esc(section.title.uppercased()))\n" + paragraphs(section.text)
        }
        s += ".SH VERSION\n\(esc(program.name)) \(esc(program.version))\n"
        return s
    }

    func synopsis(_ words: [String]) -> String {
        ".B \(esc(words[0]))\n" + words.dropFirst().map { esc($0) + "\n" }.joined()
    }

    func options(_ list: [OptionSpec], arguments: [ArgumentSpec], heading: Bool = true) -> String {
        var s = ""
        if !arguments.isEmpty {
            if heading { s += ".SH ARGUMENTS\n" }
            for a in arguments {
                s += ".TP\n.I \(esc("<\(a.name)>" + (a.isVariadic ? " ..." : "")))\n\(esc(a.help))\n"
            }
        }
        if heading { s += ".SH OPTIONS\n" }
        for o in list where !o.isHidden {
            var name = o.short.map { "\\fB\\-\(esc(String($0)))\\fR, " } ?? ""
            name += "\\fB\\-\\-\(esc(o.long))\\fR"
            if let v = o.valueName { name += " \\fI<\(esc(v))>\\fR" }
            s += ".TP\n\(name)\n\(esc(o.help))\n"
        }
        return s
    }

    /// Paragraphs (blank-line separated) as `.PP` blocks; a line starting with a space keeps
    /// its layout (`.nf` … `.fi`).
    func paragraphs(_ text: String) -> String {
        var s = ""
        var inPre = false
        var started = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if inPre { s += ".fi\n"; inPre = false }
                started = false
                continue
            }
            if !started { s += ".PP\n"; started = true }
            if line.hasPrefix(" ") {
                if !inPre { s += ".nf\n"; inPre = true }
            } else if inPre {
                s += ".fi\n"
                inPre = false
            }
            s += esc(line) + "\n"
        }
        if inPre { s += ".fi\n" }
        return s
    }

    func firstSentence(_ text: String) -> String {
        let flat = text.split(separator: "\n").joined(separator: " ")
        if let r = flat.range(of: ". ") { return String(flat[..<r.lowerBound]) }
        return flat.hasSuffix(".") ? String(flat.dropLast()) : flat
    }

    /// roff text: `\` as `\e`, `-` as `\-`, a character beyond ASCII as groff's `\[uXXXX]`
    /// (the page is ASCII, so groff needs no input encoding), a leading `.` or `'` protected
    /// with `\&`.
    func esc(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default:
                if u.isASCII { out.unicodeScalars.append(u) } else {
                    let hex = String(u.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
