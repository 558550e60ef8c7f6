import Foundation

/// What a running command can use: the console, the environment variables, the archive path.
public struct CommandContext {
    public let console: Console
    public let environment: [String: String]
    public let args: ParsedArguments

    /// `--archive`, else `$EXHIBIT_ARCHIVE`, else `./archive`.
    public var archivePath: String {
        args.value("archive") ?? environment["EXHIBIT_ARCHIVE"].flatMap { $0.isEmpty ? nil : $0 } ?? "./archive"
    }

    public var json: Bool { args.flag("json") }
}
