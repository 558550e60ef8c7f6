/// What the command line asks for.
enum Invocation {
    case run(any Command.Type, ParsedArguments)
    case help(any Command.Type)
    case rootHelp
}

/// Parses `exhibit-archive <command> [options] [arguments]` with the conventions of
/// swift-argument-parser: `--name value`, `--name=value`, `-x value`, flags, `--` ends options,
/// `--help`/`-h` anywhere, `help <command>`.
struct ArgumentParser {
    let commands: [any Command.Type]

    func parse(_ argv: [String]) throws -> Invocation {
        guard let first = argv.first else { throw UsageError("missing subcommand") }
        if first == "--help" || first == "-h" { return .rootHelp }
        if first == "help" {
            guard argv.count > 1 else { return .rootHelp }
            guard let command = find(argv[1]) else { throw UsageError("unknown subcommand '\(argv[1])'") }
            return .help(command)
        }
        if first.hasPrefix("-") { throw UsageError("unknown option '\(first)' (a subcommand comes first)") }
        guard let command = find(first) else { throw UsageError("unknown subcommand '\(first)'") }
        let rest = Array(argv.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help(command)
        }
        return .run(command, try parse(rest, for: command))
    }

    func find(_ name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    func parse(_ args: [String], for command: any Command.Type) throws -> ParsedArguments {
        let specs = SharedOptions.options(for: command)
        var parsed = ParsedArguments(command: command.name)
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
            var name: String
            var inline: String? = nil
            let spec: OptionSpec?
            if arg.hasPrefix("--") {
                name = String(arg.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                spec = specs.first { $0.long == name }
            } else {
                guard arg.count == 2, let c = arg.last else {
                    throw UsageError("unknown option '\(arg)'", command: command.name)
                }
                spec = specs.first { $0.short == c }
                name = spec?.long ?? arg
            }
            guard let spec else { throw UsageError("unknown option '\(arg)'", command: command.name) }
            if spec.isFlag {
                if inline != nil { throw UsageError("option '--\(spec.long)' takes no value", command: command.name) }
                parsed.flags.insert(spec.long)
            } else {
                let value: String
                if let inline { value = inline } else {
                    guard i < args.count else {
                        throw UsageError("missing value for '--\(spec.long) <\(spec.valueName ?? "value")>'", command: command.name)
                    }
                    value = args[i]
                    i += 1
                }
                parsed.values[spec.long, default: []].append(value)
            }
        }
        try checkPositionals(parsed.positionals, command)
        return parsed
    }

    private func checkPositionals(_ given: [String], _ command: any Command.Type) throws {
        let specs = command.arguments
        let required = specs.filter { !$0.isOptional }.count
        if given.count < required {
            let missing = specs.filter { !$0.isOptional }[given.count]
            throw UsageError("missing expected argument '<\(missing.name)>'", command: command.name)
        }
        if !(specs.last?.isVariadic ?? false) && given.count > specs.count {
            throw UsageError("unexpected argument '\(given[specs.count])'", command: command.name)
        }
    }
}
