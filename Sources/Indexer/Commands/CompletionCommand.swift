/// `completion bash|zsh|fish`: a completion script for the shell, made from the same
/// description as the parser and `--help`.
struct CompletionCommand: Command {
    static let name = "completion"
    static let abstract = "Print a shell completion script (bash, zsh or fish)."
    static let discussion = """
    Completes subcommands, each command's options, the allowed values of an option (--state,
    --sidecar, --format, …) and of an argument (trust add|list|remove), and paths where a file
    or directory is expected. bash: source <(exhibit-archive completion bash), or save it as
    /etc/bash_completion.d/exhibit-archive. zsh: save it as _exhibit-archive in a directory of
    $fpath (or source it after compinit). fish: save it as
    ~/.config/fish/completions/exhibit-archive.fish.
    """
    static let usesArchive = false
    static let arguments = [ArgumentSpec("shell", help: "bash, zsh or fish.",
                                         completion: .choices(CompletionScript.Shell.allCases.map(\.rawValue)))]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let word = args.positionals[0]
        guard let shell = CompletionScript.Shell(rawValue: word) else {
            let names = CompletionScript.Shell.allCases.map(\.rawValue)
            throw UsageError("unknown shell '\(word)': use \(names.joined(separator: ", "))"
                + Suggestion.didYouMean(word, among: names), command: name)
        }
        context.console.writeOut(Array(CompletionScript(program: CommandRunner.program).script(for: shell).utf8))
        return .success
    }
}
