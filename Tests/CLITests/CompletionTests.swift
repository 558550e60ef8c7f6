import CLI
import Foundation
import Testing

/// The completion scripts, loaded by the shells themselves: bash's `complete -F` function
/// called with COMP_WORDS as bash fills them, fish's own `complete -C`, and zsh's compinit
/// registration (zsh completion needs a terminal to run, so it is loaded and registered).
@Suite struct CompletionTests {
    static let bash = "/bin/bash"
    static let fish = ["/usr/bin/fish", "/bin/fish"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let zsh = ["/usr/bin/zsh", "/bin/zsh"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Completions bash offers for `words` (the last one being completed).
    static func bashCompletions(_ script: String, _ words: [String], in dir: ScratchDirectory, cd: String? = nil) throws -> [String] {
        let file = dir.write("completion.bash", script)
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let body = """
        set -e
        source '\(file)'
        \(cd.map { "cd '\($0)'" } ?? "")
        COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
        fn=$(complete -p \(words[0]) | sed -E 's/.*-F ([^ ]+).*/\\1/')
        $fn
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let (status, out, err) = try run(bash, ["--norc", "--noprofile", "-c", body])
        #expect(status == 0, "\(err)")
        return out.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesCommandsOptionsValuesAndArguments() throws {
        let dir = ScratchDirectory()
        _ = dir.write("cert.pem", "x")
        try FileManager.default.createDirectory(atPath: dir.path + "/bags", withIntermediateDirectories: true)
        let script = CompletionScript(program: tool).script(for: .bash)
        #expect(try Self.bashCompletions(script, ["tool", "qu"], in: dir) == ["query"])
        #expect(try Self.bashCompletions(script, ["tool", ""], in: dir) == ["--help", "--version", "-h", "help", "put", "query", "trust"])
        #expect(try Self.bashCompletions(script, ["tool", "query", "--s"], in: dir) == ["--sidecar", "--state"])
        #expect(try Self.bashCompletions(script, ["tool", "query", "--state", ""], in: dir) == ["intact", "malformed", "tampered", "unsigned"])
        #expect(try Self.bashCompletions(script, ["tool", "query", "--count", "--sidecar", "mi"], in: dir) == ["mismatch", "missing"])
        #expect(try Self.bashCompletions(script, ["tool", "query", "--limit", ""], in: dir) == [])
        #expect(try Self.bashCompletions(script, ["tool", "query", "-o", "b"], in: dir, cd: dir.path) == ["bags"])
        #expect(try Self.bashCompletions(script, ["tool", "trust", ""], in: dir) == ["add", "list", "remove"])
        #expect(try Self.bashCompletions(script, ["tool", "trust", "add", "ce"], in: dir, cd: dir.path) == ["cert.pem"])
        #expect(try Self.bashCompletions(script, ["tool", "put", "a", "--json", "ce"], in: dir, cd: dir.path) == ["cert.pem"])
        #expect(try Self.bashCompletions(script, ["tool", "help", "t"], in: dir) == ["trust"])
        // A program without subcommands.
        let single = CompletionScript(program: synth).script(for: .bash)
        #expect(try Self.bashCompletions(single, ["synth", "--f"], in: dir) == ["--faults"])
        #expect(try Self.bashCompletions(single, ["synth", "--faults", ""], in: dir) == ["all", "none"])
        #expect(try Self.bashCompletions(single, ["synth", "--stills", "2", "b"], in: dir, cd: dir.path) == ["bags"])
    }

    @Test(.enabled(if: fish != nil, "fish not installed")) func fishCompletes() throws {
        let dir = ScratchDirectory()
        let file = dir.write("tool.fish", CompletionScript(program: tool).script(for: .fish))
        func complete(_ line: String) throws -> [String] {
            let (status, out, err) = try run(try #require(Self.fish), ["--no-config", "-c", "source '\(file)'; complete -C '\(line)'"])
            #expect(status == 0, "\(err)")
            return out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try complete("tool qu") == ["query"])
        #expect(try complete("tool query --sta").contains("--state"))
        #expect(try complete("tool query --state ") == ["intact", "malformed", "tampered", "unsigned"])
        #expect(try complete("tool trust ") .contains("remove"))
    }

    @Test(.enabled(if: zsh != nil, "zsh not installed")) func zshLoadsAndRegisters() throws {
        let dir = ScratchDirectory()
        let file = dir.write("_tool", CompletionScript(program: tool).script(for: .zsh))
        #expect(try run(try #require(Self.zsh), ["-n", file]).0 == 0)
        let (status, out, err) = try run(try #require(Self.zsh), ["-f", "-c", "autoload -U compinit && compinit -u -D && source '\(file)' && print -r -- $_comps[tool]"])
        #expect(status == 0, "\(err)")
        #expect(out == "_tool\n")
    }
}
