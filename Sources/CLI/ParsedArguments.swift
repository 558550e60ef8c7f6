/// A usage error: the command line is wrong. Exit code 2, message on stderr.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The command whose usage line follows the message (nil: the root).
    public let command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String { message }
}

/// Options and positional arguments of one invocation, after parsing.
public struct ParsedArguments: Sendable, Equatable {
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []
    /// The subcommand whose usage a `UsageError` about these arguments shows (nil: the root).
    public let command: String?

    public init(command: String?) { self.command = command }

    /// The last value of `--name`, if given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable `--name`.
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// `--name` parsed as a Double in `range`, or nil when absent.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let v = Double(text), range.contains(v) else {
            throw UsageError("--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return v
    }
}
