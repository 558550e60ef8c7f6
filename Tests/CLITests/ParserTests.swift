import CLI
import Testing

/// The shared parser: the conventions of swift-argument-parser, did-you-mean, --version, and a
/// program without subcommands.
@Suite struct ParserTests {
    let parser = ArgumentParser(program: tool)

    func args(_ argv: [String]) throws -> ParsedArguments {
        guard case .run(_, let parsed) = try parser.parse(argv) else { throw UsageError("not a run") }
        return parsed
    }

    func usageMessage(_ argv: [String], _ p: ArgumentParser? = nil) -> String? {
        do { _ = try (p ?? parser).parse(argv); return nil } catch let e as UsageError { return e.message } catch { return "\(error)" }
    }

    @Test func conventions() throws {
        let a = try args(["query", "--state", "intact", "--sidecar=mismatch", "-o", "dir", "--count", "--state", "tampered"])
        #expect(a.allValues("state") == ["intact", "tampered"])
        #expect(a.value("sidecar") == "mismatch" && a.value("out") == "dir" && a.flag("count"))
        let b = try args(["put", "--json", "--", "--not-an-option", "-"])
        #expect(b.positionals == ["--not-an-option", "-"] && b.flag("json"))
        if case .help(let c) = try parser.parse(["put", "x", "--help"]) { #expect(c.name == "put") } else { Issue.record("no help") }
        if case .help(let c) = try parser.parse(["help", "trust"]) { #expect(c.name == "trust") } else { Issue.record("no help") }
        if case .version = try parser.parse(["--version"]) {} else { Issue.record("no version") }
        if case .rootHelp = try parser.parse(["-h"]) {} else { Issue.record("no root help") }
        // After `--`, --help is an argument.
        #expect(try args(["put", "--", "--help"]).positionals == ["--help"])
    }

    @Test func misspellingsNameTheClosest() {
        #expect(usageMessage(["qurey"]) == "unknown subcommand 'qurey'; did you mean 'query'?")
        #expect(usageMessage(["tr"]) == "unknown subcommand 'tr'; did you mean 'trust'?")    // unique prefix
        #expect(usageMessage(["zzzz"]) == "unknown subcommand 'zzzz'")
        #expect(usageMessage(["query", "--sidcar", "x"]) == "unknown option '--sidcar'; did you mean '--sidecar'?")
        #expect(usageMessage(["query", "--stat=intact"]) == "unknown option '--stat'; did you mean '--state'?")
        #expect(usageMessage(["--verison"]) == "unknown option '--verison' (a subcommand comes first); did you mean '--version'?")
        #expect(usageMessage(["query", "--limit"]) == "missing value for '--limit <n>'")
        #expect(usageMessage(["query", "--count=1"]) == "option '--count' takes no value")
        #expect(usageMessage(["trust"]) == "missing expected argument '<action>'")
        #expect(usageMessage(["trust", "add", "a", "b"]) == "unexpected argument 'b'")
        #expect(Suggestion.closest(to: "verify-exprot", among: ["verify", "verify-export", "export"]) == ["verify-export"])
        #expect(Suggestion.didYouMean("lst", among: ["list", "last"]) == "; did you mean 'last' or 'list'?")
    }

    @Test func programWithoutSubcommands() throws {
        let p = ArgumentParser(program: synth)
        guard case .run(let c, let a) = try p.parse(["out", "--stills", "3", "--faults=all"]) else { Issue.record("no run"); return }
        #expect(c.name == "synth" && a.positionals == ["out"] && a.value("stills") == "3" && a.value("faults") == "all")
        if case .version = try p.parse(["--version"]) {} else { Issue.record("no version") }
        if case .help = try p.parse(["x", "-h"]) {} else { Issue.record("no help") }
        #expect(usageMessage(["out", "--stils", "1"], p) == "unknown option '--stils'; did you mean '--stills'?")
        #expect(usageMessage(["out", "--seed", "-3"], p) == "unknown option '--seed'")
    }
}
