/// A command-line option: `--name <value>` (or `--name=<value>`), or a flag `--name`.
public struct OptionSpec: Sendable, Equatable {
    public let long: String
    public let short: Character?
    /// The placeholder of the value; nil for a flag.
    public let valueName: String?
    public let help: String

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
    }

    var isFlag: Bool { valueName == nil }
}

/// A positional argument.
public struct ArgumentSpec: Sendable, Equatable {
    public let name: String
    public let help: String
    public let isVariadic: Bool
    public let isOptional: Bool

    public init(_ name: String, help: String, variadic: Bool = false, optional: Bool = false) {
        self.name = name
        self.help = help
        self.isVariadic = variadic
        self.isOptional = optional
    }
}

/// One subcommand of `exhibit-archive`. A new command is a type conforming to this protocol,
/// in its own file, listed in `RootCommand.subcommands`.
public protocol Command {
    /// The word on the command line (`put`).
    static var name: String { get }
    /// One line for the command list and the OVERVIEW.
    static var abstract: String { get }
    /// More paragraphs for `--help` (may be empty).
    static var discussion: String { get }
    /// Whether the command opens an archive (adds the shared `--archive` option).
    static var usesArchive: Bool { get }
    /// Options of this command only (the shared group is added by the parser).
    static var options: [OptionSpec] { get }
    static var arguments: [ArgumentSpec] { get }
    /// Runs with parsed arguments; throw `UsageError` for a bad value, any other error for a
    /// failure (mapped to an exit code by `CommandRunner`).
    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode
}

extension Command {
    public static var discussion: String { "" }
    public static var usesArchive: Bool { true }
    public static var options: [OptionSpec] { [] }
    public static var arguments: [ArgumentSpec] { [] }
}

/// The shared options group.
enum SharedOptions {
    static let archive = OptionSpec("archive", value: "dir",
                                    help: "Archive directory (default: $EXHIBIT_ARCHIVE, else ./archive).")
    static let json = OptionSpec("json", help: "Print JSON Lines on stdout.")
    static let help = OptionSpec("help", short: "h", help: "Show help information.")

    static func options(for command: any Command.Type) -> [OptionSpec] {
        (command.usesArchive ? [archive] : []) + command.options + [json, help]
    }
}
