import CLI
import Testing

/// Help text wrapped to a terminal's width: no line longer than the width (unless one word
/// is), nothing lost, and exactly as written when no width is known.
@Suite struct HelpWrapTests {
    func words(_ s: String) -> [Substring] { s.split(whereSeparator: { $0 == " " || $0 == "\n" }) }

    @Test func everyLineFitsTheWidth() {
        for width in [40, 60, 80] {
            let help = HelpText(program: tool, width: width)
            for text in [help.root(), help.command(Query.self), help.command(Trust.self), help.usage(Query.self),
                         HelpText(program: synth, width: width).root()] {
                for line in text.split(separator: "\n") {
                    #expect(line.count <= width || !line.trimmingCharacters(in: .whitespaces).contains(" "),
                            "width \(width): \(line.count) > \(width): \(line)")
                }
            }
            // The same words as the unwrapped text, in the same order.
            #expect(words(help.command(Query.self)) == words(HelpText(program: tool).command(Query.self)))
        }
    }

    @Test func usageContinuesUnderTheCommand() {
        let usage = HelpText(program: tool, width: 50).usage(Query.self)
        let lines = usage.split(separator: "\n")
        #expect(lines.count > 1)
        #expect(lines[0].hasPrefix("USAGE: tool query [--state <state>]"))
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 16)) && $0.dropFirst(16).first == "[" })
        #expect(HelpText(program: tool).usage(Query.self)
                == "USAGE: tool query [--state <state>] [--sidecar <state>] [--limit <n>] [--out <dir>] [--count] [--json]")
    }

    @Test func preformattedLinesAreKept() {
        let text = HelpText(program: tool, width: 70).command(Query.self)
        #expect(text.contains("\n  a preformatted line that is kept as it is when it fits\n"))
        #expect(text.contains("written for a wide\nterminal") || text.contains("written for a wide terminal"))
    }

    @Test func withoutWidthTheTextIsAsWritten() {
        let text = HelpText(program: tool).command(Query.self)
        #expect(text.hasPrefix("OVERVIEW: \(Query.abstract)\n\n\(Query.discussion)\n\nUSAGE: tool query"))
        #expect(text.contains("  --state <state>         Integrity: intact, tampered, unsigned or malformed.\n"))
        #expect(text.contains("  -o, --out <dir>         Output directory.\n"))
        #expect(text.hasSuffix("  -h, --help              Show help information.\n"))
        let root = HelpText(program: tool).root()
        #expect(root.contains("OPTIONS:\n  -h, --help              Show help information.\n  --version               Show the version.\n"))
    }
}
