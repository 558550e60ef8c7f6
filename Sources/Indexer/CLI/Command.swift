@_exported import CLI

/// One subcommand of `exhibit-archive`. A new command is a type conforming to this protocol,
/// in its own file, listed in `CommandRunner.commands`.
public protocol Command: CommandSpec {
    /// Whether the command opens an archive (adds the shared `--archive` option).
    static var usesArchive: Bool { get }
    /// Runs with parsed arguments; throw `UsageError` for a bad value, any other error for a
    /// failure (mapped to an exit code by `CommandRunner`).
    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode
}

extension Command {
    public static var usesArchive: Bool { true }
}

/// The shared options group.
enum SharedOptions {
    static let archive = OptionSpec("archive", value: "dir",
                                    help: "Archive directory (default: $EXHIBIT_ARCHIVE, else ./archive).",
                                    completion: .directory)
    static let json = OptionSpec("json", help: "Print JSON Lines on stdout.")

    static func options(for command: any CommandSpec.Type) -> [OptionSpec] {
        let usesArchive = (command as? any Command.Type)?.usesArchive ?? false
        return (usesArchive ? [archive] : []) + command.options + [json, Program.help]
    }
}
