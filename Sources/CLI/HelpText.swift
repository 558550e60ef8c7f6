/// Help text in the layout of swift-argument-parser (OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS). Tests pin it. With a `width` (a terminal's columns) every line is wrapped to
/// it: usage lines break between options, help columns and paragraphs are reflowed; without
/// one the text is exactly as written.
public struct HelpText {
    public let program: Program
    public let width: Int?
    static let column = 26

    public init(program: Program, width: Int? = nil) {
        self.program = program
        self.width = width.map { max(40, $0) }
    }

    public func root() -> String {
        if let main = program.main { return command(main) }
        var out = "OVERVIEW: " + flow(program.overview, after: "OVERVIEW: ".count) + "\n\n"
        out += "USAGE: \(program.name) <subcommand> [options]\n\nOPTIONS:\n"
        for o in program.rootOptions where !o.isHidden { out += row(o.synopsis, o.help) }
        out += "\nSUBCOMMANDS:\n"
        for c in program.commands { out += row(c.name, c.abstract) }
        out += "\n  " + flow("See '\(program.name) help <subcommand>' for detailed help.", after: 2) + "\n"
        return out
    }

    /// The words of a usage line: the command, its options but `--help`/`--version`, its
    /// arguments.
    public func usageWords(_ command: any CommandSpec.Type) -> [String] {
        var parts = [program.invocation(command)]
        for o in program.options(for: command) where o.long != "help" && o.long != "version" && !o.isHidden {
            parts.append(o.isFlag ? "[--\(o.long)]" : "[--\(o.long) <\(o.valueName ?? "value")>]")
        }
        for a in command.arguments {
            var text = "<\(a.name)>"
            if a.isVariadic { text += " ..." }
            parts.append(a.isOptional ? "[\(text)]" : text)
        }
        return parts
    }

    public func usage(_ command: any CommandSpec.Type) -> String {
        let words = usageWords(command)
        guard let width else { return "USAGE: " + words.joined(separator: " ") }
        let lead = "USAGE: " + words[0]
        let indent = min(lead.count + 1, width / 3)
        let lines = TextWrap.words(Array(words.dropFirst()), width: width, firstIndent: lead.count + 1, indent: indent)
        if words.count == 1 { return lead }
        return lead + " " + lines[0] + lines.dropFirst().map { "\n" + String(repeating: " ", count: indent) + $0 }.joined()
    }

    public func command(_ command: any CommandSpec.Type) -> String {
        var out = "OVERVIEW: " + flow(command.abstract, after: "OVERVIEW: ".count) + "\n"
        if !command.discussion.isEmpty { out += "\n\(flow(command.discussion, after: 0))\n" }
        out += "\n\(usage(command))\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in command.arguments { out += row("<\(a.name)>" + (a.isVariadic ? " ..." : ""), a.help) }
        }
        out += "\nOPTIONS:\n"
        for o in program.options(for: command) where !o.isHidden { out += row(o.synopsis, o.help) }
        return out
    }

    /// `text` as written, or reflowed to the width (the first line after `after` characters).
    func flow(_ text: String, after: Int) -> String {
        guard let width else { return text }
        if !text.contains("\n") {
            let lines = TextWrap.words(text.split(separator: " ").map(String.init), width: width, firstIndent: after, indent: 0)
            return lines.joined(separator: "\n")
        }
        return TextWrap.paragraphs(text, width: width)
    }

    func row(_ left: String, _ right: String) -> String {
        let column = Self.column
        let pad = "  " + left
        let head = pad.count + 2 > column ? pad + "\n" + String(repeating: " ", count: column)
                                          : pad + String(repeating: " ", count: column - pad.count)
        guard let width, column + right.count > width else { return head + right + "\n" }
        let lines = TextWrap.words(right.split(separator: " ").map(String.init), width: width, firstIndent: column, indent: column)
        return head + lines.joined(separator: "\n" + String(repeating: " ", count: column)) + "\n"
    }
}
