/// What the shell may complete for a value: nothing in particular, a file, a directory, or
/// one of a fixed list of words.
public enum CompletionKind: Sendable, Equatable {
    case none
    case file
    case directory
    case choices([String])
}

/// A command-line option: `--name <value>` (or `--name=<value>`), or a flag `--name`.
public struct OptionSpec: Sendable, Equatable {
    public let long: String
    public let short: Character?
    /// The placeholder of the value; nil for a flag.
    public let valueName: String?
    public let help: String
    /// What the completion scripts offer for the value.
    public let completion: CompletionKind
    /// Shown in `--help` only when true (the completion and manual options of the root).
    public let isHidden: Bool

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                completion: CompletionKind = .none, hidden: Bool = false) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
        self.completion = completion
        self.isHidden = hidden
    }

    public var isFlag: Bool { valueName == nil }

    /// `-o, --out <dir>` as the help and the manual show it.
    public var synopsis: String {
        var name = short.map { "-\($0), " } ?? ""
        name += "--\(long)"
        if let v = valueName { name += " <\(v)>" }
        return name
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable, Equatable {
    public let name: String
    public let help: String
    public let isVariadic: Bool
    public let isOptional: Bool
    public let completion: CompletionKind

    public init(_ name: String, help: String, variadic: Bool = false, optional: Bool = false,
                completion: CompletionKind = .none) {
        self.name = name
        self.help = help
        self.isVariadic = variadic
        self.isOptional = optional
        self.completion = completion
    }
}

/// What the parser, the help text, the completion scripts and the manual page know of one
/// command: its word, its text, its options and arguments. A program with subcommands lists
/// one per subcommand; a program without (`capture-synth`) has one for itself.
public protocol CommandSpec {
    /// The word on the command line (`put`); for a program without subcommands, its name.
    static var name: String { get }
    /// One line for the command list and the OVERVIEW.
    static var abstract: String { get }
    /// More paragraphs for `--help` (may be empty).
    static var discussion: String { get }
    /// Options of this command only (the program adds its shared group around them).
    static var options: [OptionSpec] { get }
    static var arguments: [ArgumentSpec] { get }
}

extension CommandSpec {
    public static var discussion: String { "" }
    public static var options: [OptionSpec] { [] }
    public static var arguments: [ArgumentSpec] { [] }
}
