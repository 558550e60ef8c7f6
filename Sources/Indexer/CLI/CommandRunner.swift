import CAS
import Foundation
import LMDB

/// Parses, runs and maps errors to exit codes: usage errors → 2 (message and usage on
/// stderr), archive errors → 3, other failures → 1.
public enum CommandRunner {
    /// Every subcommand, in help order. Later commands are added here.
    public static var commands: [any Command.Type] { [
        InitCommand.self, PutCommand.self, GetCommand.self, StatCommand.self,
        AuditCommand.self, StatsCommand.self, GCCommand.self, VerifyCommand.self,
        IngestCommand.self, TrustCommand.self, ReverifyCommand.self, LogCommand.self,
        QueryCommand.self, ShowCommand.self,
        ExportCommand.self, VerifyExportCommand.self,
    ] }

    public static func run(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           console: Console = .standard()) -> ExitCode {
        let parser = ArgumentParser(commands: commands)
        let invocation: Invocation
        do {
            invocation = try parser.parse(argv)
        } catch let e as UsageError {
            return usage(e, parser, console)
        } catch {
            console.err("Error: \(error)")
            return .usage
        }
        switch invocation {
        case .rootHelp:
            console.writeOut(Array(HelpText.root(commands).utf8))
            return .success
        case .help(let command):
            console.writeOut(Array(HelpText.command(command).utf8))
            return .success
        case .run(let command, let args):
            let context = CommandContext(console: console, environment: environment, args: args)
            do {
                return try command.run(args, context)
            } catch let e as UsageError {
                return usage(e, parser, console)
            } catch let e as CASError {
                console.err("Error: \(e)")
                return exitCode(for: e)
            } catch let e as LMDBError {
                console.err("Error: \(CASError.storage(e))")
                return .archiveUnusable
            } catch {
                console.err("Error: \(error)")
                return .failure
            }
        }
    }

    /// The exit code a store error means.
    public static func exitCode(for error: CASError) -> ExitCode {
        switch error {
        case .notAnArchive, .unsupportedFormat, .storage: .archiveUnusable
        default: .failure
        }
    }

    private static func usage(_ e: UsageError, _ parser: ArgumentParser, _ console: Console) -> ExitCode {
        console.err("Error: \(e.message)")
        if let name = e.command, let command = parser.find(name) {
            console.err(HelpText.usage(command))
            console.err("  See '\(HelpText.tool) \(name) --help' for more information.")
        } else {
            console.err("USAGE: \(HelpText.tool) <subcommand> [options]")
            console.err("  See '\(HelpText.tool) --help' for more information.")
        }
        return .usage
    }
}
