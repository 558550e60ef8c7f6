import CLI
import Foundation
import Testing

/// The manual page: groff formats it without a warning, and it carries every command, option
/// and section of the help text.
@Suite struct ManualPageTests {
    static let groff = ["/usr/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: groff != nil, "groff not installed")) func groffFormatsItWithoutWarnings() throws {
        let dir = ScratchDirectory()
        for (name, program) in [("tool", tool), ("synth", synth)] {
            let file = dir.write("\(name).1", ManualPage(program: program).roff())
            let (status, text, warnings) = try run(try #require(Self.groff), ["-man", "-Tutf8", "-ww", "-rLL=100n", file],
                                                   environment: ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
            #expect(status == 0)
            #expect(warnings.isEmpty, "\(warnings)")
            // groff bolds and underlines by overstriking (`x\bx`, `_\bx`) and justifies lines:
            // compare the letters with single spaces.
            let plain = text.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
                .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
            #expect(!plain.contains("‐"), "hyphenated")
            #expect(plain.contains("NAME"))
            for c in program.main.map({ [$0] }) ?? program.commands {
                #expect(plain.contains(c.abstract.prefix(20)), "\(c.name)")
                for o in program.options(for: c) { #expect(plain.contains("--" + o.long), "\(c.name) --\(o.long)") }
            }
        }
    }

    @Test func sectionsAndEscapes() {
        let roff = ManualPage(program: tool).roff()
        #expect(roff.hasPrefix(".TH TOOL 1 \"\" \"tool 9.8.7\" \"User Commands\"\n.nh\n.ad l\n.SH NAME\ntool \\- A tool for the tests\n"))
        #expect(roff.contains(".SS \"tool query\"\n"))
        #expect(roff.contains(".TP\n\\fB\\-o\\fR, \\fB\\-\\-out\\fR \\fI<dir>\\fR\nOutput directory.\n"))
        #expect(roff.contains(".SH EXIT STATUS\n.PP\n0 success, 2 usage.\n"))
        // A preformatted line stays in a no-fill block.
        #expect(roff.contains(".nf\n  a preformatted line that is kept as it is when it fits\n.fi\n"))
    }
}
