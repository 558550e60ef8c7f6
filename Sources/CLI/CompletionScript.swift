/// Shell completion scripts made from a `Program` (the same description the parser and the
/// help use): subcommands, each command's options, the allowed words of an option's value or
/// of a positional argument (`--state intact…`, `trust add|list|remove`), files and
/// directories where a path is expected.
///
/// Load them with `source <(exhibit-archive completion bash)` (bash), by saving the zsh one as
/// `_exhibit-archive` in a directory of `$fpath`, or the fish one in
/// `~/.config/fish/completions/exhibit-archive.fish`.
public struct CompletionScript {
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    public let program: Program

    public init(program: Program) { self.program = program }

    public func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// The commands to describe: the subcommands, or the program's own.
    var commands: [any CommandSpec.Type] { program.main.map { [$0] } ?? program.commands }

    /// The shell function's name: `_exhibit_archive`.
    var function: String { "_" + program.name.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined() }

    /// Every spelling of an option (`-o`, `--out`).
    static func spellings(_ o: OptionSpec) -> [String] {
        (o.short.map { ["-\($0)"] } ?? []) + ["--\(o.long)"]
    }
}
