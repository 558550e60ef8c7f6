import Archive
import Custody
import Export
import Foundation
import Ground
import Ingest

/// Parses, runs and maps errors to exit codes: usage errors → 2 (message and usage on
/// stderr), archive errors → 3, other failures → 1.
public enum CommandRunner {
    /// Every subcommand, in help order. Later commands are added here.
    public static var commands: [any Command.Type] { [
        InitCommand.self, PutCommand.self, GetCommand.self, StatCommand.self,
        AuditCommand.self, StatsCommand.self, GCCommand.self, VerifyCommand.self,
        IngestCommand.self, WorkerCommand.self, QueueCommand.self, AnalyzeCommand.self, TrustCommand.self, ReverifyCommand.self, LogCommand.self,
        QueryCommand.self, ShowCommand.self,
        ExportCommand.self, VerifyExportCommand.self,
        CompletionCommand.self, ManualCommand.self,
    ] }

    static let overview = """
    Exhibit Archive: a batch archival indexer for signed captures over an LMDB-backed
    content-addressed store. It reports what was checked, what matched and what is absent;
    it gives no authenticity verdicts.
    """

    /// The command line of `exhibit-archive`, as the parser, the help, the completion scripts
    /// and the manual page see it.
    public static var program: Program {
        Program(name: "exhibit-archive", version: CustodyAgent.toolVersion, overview: overview, commands: commands,
                manualSections: ManualCommand.sections, options: SharedOptions.options(for:))
    }

    public static func run(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           console: Console = .standard()) -> ExitCode {
        let program = program
        let width = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? console.terminalColumns
        let help = HelpText(program: program, width: width)
        let parser = ArgumentParser(program: program)
        let invocation: Invocation
        do {
            invocation = try parser.parse(argv)
        } catch let e as UsageError {
            return usage(e, help, console)
        } catch {
            console.err("Error: \(error)")
            return .usage
        }
        switch invocation {
        case .rootHelp:
            console.writeOut(Array(help.root().utf8))
            return .success
        case .help(let command):
            console.writeOut(Array(help.command(command).utf8))
            return .success
        case .version:
            console.out("\(program.name) \(program.version)")
            return .success
        case .run(let spec, let args):
            guard let command = spec as? any Command.Type else { return .usage }
            let context = CommandContext(console: console, environment: environment, args: args)
            do {
                return try command.run(args, context)
            } catch let e as UsageError {
                return usage(e, help, console)
            } catch let e as any ArchiveFailure {
                // A store's failure (blobs, S3, the PostgreSQL index, its schema): 3 when the
                // archive cannot be used, else 1.
                console.err("Error: \(e)")
                return exitCode(for: e)
            } catch let e as any StorageFailure {
                console.err("Error: \(e.explanation)")
                return .archiveUnusable
            } catch let e as ExportError where e.code == StatusCode.exportBlobStoreUnavailable {
                console.err("Error: \(e)")
                return .archiveUnusable
            } catch let e as ArchiveConfigurationError {
                console.err("Error: \(e)")
                return .archiveUnusable
            } catch {
                console.err("Error: \(error)")
                return .failure
            }
        }
    }

    /// The exit code a store's error means: 3 when the archive cannot be used (no archive, an
    /// unsupported format, the medium unreachable or failing, the index's schema of another
    /// version), else 1 (`ArchiveFailure.archiveUnusable`, as each store says of its errors).
    public static func exitCode(for error: any ArchiveFailure) -> ExitCode {
        error.archiveUnusable ? .archiveUnusable : .failure
    }

    static func usage(_ e: UsageError, _ help: HelpText, _ console: Console) -> ExitCode {
        console.err("Error: \(e.message)")
        if let name = e.command, let command = help.program.command(named: name) {
            console.lines(help.usage(command), toStderr: true)
            console.err("  See '\(help.program.name) \(name) --help' for more information.")
        } else {
            console.err("USAGE: \(help.program.name) <subcommand> [options]")
            console.err("  See '\(help.program.name) --help' for more information.")
        }
        return .usage
    }
}
