/// What the command line asks for.
public enum Invocation {
    case run(any CommandSpec.Type, ParsedArguments)
    case help(any CommandSpec.Type)
    case rootHelp
    case version
}

/// Parses a command line with the conventions of swift-argument-parser: `--name value`,
/// `--name=value`, `-x value`, flags, `--` ends options, `--help`/`-h` anywhere before `--`,
/// `help <command>`, `--version` first. A misspelt subcommand or option is a usage error that
/// names the closest spellings (`did you mean 'query'?`).
public struct ArgumentParser {
    public let program: Program

    public init(program: Program) { self.program = program }

    public func parse(_ argv: [String]) throws -> Invocation {
        if let main = program.main {
            let options = argv.prefix { $0 != "--" }
            if options.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help(main) }
            if options.contains("--version") { return .version }
            return .run(main, try parse(argv, for: main))
        }
        guard let first = argv.first else { throw UsageError("missing subcommand") }
        if first == "--help" || first == "-h" { return .rootHelp }
        if first == "--version" { return .version }
        if first == "help" {
            guard argv.count > 1 else { return .rootHelp }
            return .help(try subcommand(argv[1]))
        }
        if first.hasPrefix("-") {
            throw UsageError("unknown option '\(first)' (a subcommand comes first)"
                + Suggestion.didYouMean(first, among: program.rootOptions.map { "--" + $0.long }))
        }
        let command = try subcommand(first)
        let rest = Array(argv.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help(command)
        }
        return .run(command, try parse(rest, for: command))
    }

    func subcommand(_ word: String) throws -> any CommandSpec.Type {
        if let command = program.command(named: word) { return command }
        throw UsageError("unknown subcommand '\(word)'" + Suggestion.didYouMean(word, among: program.commands.map { $0.name }))
    }

    public func parse(_ args: [String], for command: any CommandSpec.Type) throws -> ParsedArguments {
        let specs = program.options(for: command)
        let tag = program.main == nil ? command.name : nil
        var parsed = ParsedArguments(command: tag)
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            var inline: String? = nil
            let spec: OptionSpec?
            if arg.hasPrefix("--") {
                var name = String(arg.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                spec = specs.first { $0.long == name }
            } else {
                guard arg.count == 2, let c = arg.last else {
                    throw UsageError("unknown option '\(arg)'" + Suggestion.didYouMean(arg, among: specs.map { "--" + $0.long }), command: tag)
                }
                spec = specs.first { $0.short == c }
            }
            guard let spec else {
                let given = inline == nil ? arg : String(arg.prefix { $0 != "=" })
                throw UsageError("unknown option '\(given)'" + Suggestion.didYouMean(given, among: specs.map { "--" + $0.long }),
                                 command: tag)
            }
            if spec.isFlag {
                if inline != nil { throw UsageError("option '--\(spec.long)' takes no value", command: tag) }
                parsed.flags.insert(spec.long)
            } else {
                let value: String
                if let inline { value = inline } else {
                    guard i < args.count else {
                        throw UsageError("missing value for '--\(spec.long) <\(spec.valueName ?? "value")>'", command: tag)
                    }
                    value = args[i]
                    i += 1
                }
                parsed.values[spec.long, default: []].append(value)
            }
        }
        try checkPositionals(parsed.positionals, command, tag)
        return parsed
    }

    private func checkPositionals(_ given: [String], _ command: any CommandSpec.Type, _ tag: String?) throws {
        let specs = command.arguments
        let required = specs.filter { !$0.isOptional }.count
        if given.count < required {
            let missing = specs.filter { !$0.isOptional }[given.count]
            throw UsageError("missing expected argument '<\(missing.name)>'", command: tag)
        }
        if !(specs.last?.isVariadic ?? false) && given.count > specs.count {
            throw UsageError("unexpected argument '\(given[specs.count])'", command: tag)
        }
    }
}
