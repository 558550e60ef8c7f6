/// Help text in the layout of swift-argument-parser (OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS). Tests pin it.
enum HelpText {
    static let tool = "exhibit-archive"
    static let column = 26

    static func root(_ commands: [any Command.Type]) -> String {
        var out = """
        OVERVIEW: Exhibit Archive: a batch archival indexer for signed captures over an LMDB-backed
        content-addressed store. It reports what was checked, what matched and what is absent;
        it gives no authenticity verdicts.

        USAGE: \(tool) <subcommand> [options]

        OPTIONS:

        """
        out += row("-h, --help", "Show help information.")
        out += "\nSUBCOMMANDS:\n"
        for c in commands { out += row(c.name, c.abstract) }
        out += "\n  See '\(tool) help <subcommand>' for detailed help.\n"
        return out
    }

    static func usage(_ command: any Command.Type) -> String {
        var parts = ["\(tool) \(command.name)"]
        for o in SharedOptions.options(for: command) where o.long != "help" {
            parts.append(o.isFlag ? "[--\(o.long)]" : "[--\(o.long) <\(o.valueName ?? "value")>]")
        }
        for a in command.arguments {
            var text = "<\(a.name)>"
            if a.isVariadic { text += " ..." }
            parts.append(a.isOptional ? "[\(text)]" : text)
        }
        return "USAGE: " + parts.joined(separator: " ")
    }

    static func command(_ command: any Command.Type) -> String {
        var out = "OVERVIEW: \(command.abstract)\n"
        if !command.discussion.isEmpty { out += "\n\(command.discussion)\n" }
        out += "\n\(usage(command))\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in command.arguments { out += row("<\(a.name)>" + (a.isVariadic ? " ..." : ""), a.help) }
        }
        out += "\nOPTIONS:\n"
        for o in SharedOptions.options(for: command) {
            var name = o.short.map { "-\($0), " } ?? ""
            name += "--\(o.long)"
            if let v = o.valueName { name += " <\(v)>" }
            out += row(name, o.help)
        }
        return out
    }

    private static func row(_ left: String, _ right: String) -> String {
        let pad = "  " + left
        if pad.count + 2 > column { return pad + "\n" + String(repeating: " ", count: column) + right + "\n" }
        return pad + String(repeating: " ", count: column - pad.count) + right + "\n"
    }
}
