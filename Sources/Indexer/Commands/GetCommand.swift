import Archive
import Foundation
import Ground

/// `get ID [-o FILE]`: writes a blob to stdout or a file, re-hashing it on the way.
struct GetCommand: Command {
    static let name = "get"
    static let abstract = "Write a blob's bytes to stdout or a file, verified against its ID."
    static let discussion = """
    Every chunk and the whole blob are re-hashed; on a mismatch nothing more is written and the
    exit code is 1. With -o the bytes go to a temporary file renamed to FILE only when all of
    them matched, so FILE never holds a partial or damaged blob. On stdout, bytes before the
    damaged chunk have already been written.
    """
    static let arguments = [ArgumentSpec("id", help: "The blob's SHA-256, 64 hex digits.")]
    static let options = [OptionSpec("output", short: "o", value: "file", help: "Write to this file instead of stdout.", completion: .file)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = try parseID(args.positionals[0], command: name)
        let blobs = try context.openArchive(access: .readIfNotWritable).blobs
        if let output = args.value("output") {
            try blobs.export(id, to: output)
        } else {
            try blobs.get(id) { try context.console.writeOut($0) }
        }
        return .success
    }

    /// A 64-hex-digit ID, or a usage error.
    static func parseID(_ text: String, command: String) throws -> ContentID {
        guard let id = ContentID(hexIgnoringCase: text) else {
            throw UsageError("'\(text)' is not a blob ID (64 hex digits)", command: command)
        }
        return id
    }
}
