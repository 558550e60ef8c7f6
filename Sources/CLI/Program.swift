/// One executable's command line: its name, version and overview, and either subcommands
/// (`exhibit-archive <subcommand> [options]`) or one command of its own (`capture-synth OUT
/// [options]`). The parser, the help text, the completion scripts and the manual page are all
/// made from this description, so they cannot disagree.
public struct Program {
    public let name: String
    public let version: String
    /// The root's OVERVIEW paragraph (a program without subcommands uses its command's text).
    public let overview: String
    /// Subcommands in help order; empty for a program without subcommands.
    public let commands: [any CommandSpec.Type]
    /// The command of a program without subcommands.
    public let main: (any CommandSpec.Type)?
    /// Sections appended to the manual page (title, text), e.g. EXIT STATUS, ENVIRONMENT.
    public let manualSections: [(title: String, text: String)]
    private let optionGroup: (any CommandSpec.Type) -> [OptionSpec]

    /// - Parameter options: every option of a command as the parser accepts and the help lists
    ///   it: the program's shared group around the command's own (`-h, --help` among them).
    public init(name: String, version: String, overview: String, commands: [any CommandSpec.Type],
                manualSections: [(title: String, text: String)] = [],
                options: @escaping (any CommandSpec.Type) -> [OptionSpec]) {
        self.name = name
        self.version = version
        self.overview = overview
        self.commands = commands
        self.main = nil
        self.manualSections = manualSections
        self.optionGroup = options
    }

    /// A program without subcommands: `main`'s options plus `--help` and `--version`.
    public init(name: String, version: String, main: any CommandSpec.Type,
                manualSections: [(title: String, text: String)] = []) {
        self.name = name
        self.version = version
        self.overview = main.abstract
        self.commands = []
        self.main = main
        self.manualSections = manualSections
        self.optionGroup = { $0.options + [Self.help, Self.versionOption] }
    }

    public static let help = OptionSpec("help", short: "h", help: "Show help information.")
    public static let versionOption = OptionSpec("version", help: "Show the version.")

    /// Every option `command` accepts, in help order.
    public func options(for command: any CommandSpec.Type) -> [OptionSpec] { optionGroup(command) }

    /// The subcommand named `name`.
    public func command(named name: String) -> (any CommandSpec.Type)? {
        commands.first { $0.name == name }
    }

    /// The root's options: `-h, --help` and `--version`.
    public var rootOptions: [OptionSpec] { main.map(options(for:)) ?? [Self.help, Self.versionOption] }

    /// `exhibit-archive put` or, without subcommands, `capture-synth`.
    public func invocation(_ command: any CommandSpec.Type) -> String {
        main == nil ? "\(name) \(command.name)" : name
    }
}
