import Archive
import Foundation
import Ground

/// `put FILE...`: stores files, printing `<id> new|known <bytes> <path>` per file.
struct PutCommand: Command {
    static let name = "put"
    static let abstract = "Store files in the content-addressed store."
    static let discussion = """
    Prints one line per file: <id> new|known <bytes> <path>. A file that cannot be read is
    reported on stderr and the others are still stored (exit 1). Into an S3-backed archive
    (init --blobs) each file is uploaded, then listed in the archive's blob ledger.
    """
    static let arguments = [ArgumentSpec("file", help: "Files to store.", variadic: true, completion: .file)]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try FileLimitSetting.check(context, command: name)
        let blobs = try context.opener().openBlobs()
        let sizes = args.positionals.map { path -> UInt64 in
            ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.uint64Value ?? 0
        }
        let bar = ProgressBar(console: context.console, items: sizes.count, bytes: sizes.reduce(0, +))
        defer { bar.finish() }
        var failed = false
        for path in args.positionals {
            do {
                let result = try blobs.put(file: path) { bar.advance(bytes: UInt64($0)) }
                bar.advance(items: 1)
                let status = result.isNew ? "new" : "known"
                if context.json {
                    context.console.json(.object([("id", .string(result.id.hex)), ("status", .string(status)),
                                                  ("bytes", .int(Int64(result.size))), ("path", .string(path))]))
                } else {
                    context.console.out("\(result.id.hex) \(status) \(result.size) \(path)")
                }
            } catch let e as any BlobStoreFailure where CommandRunner.exitCode(for: e) == .failure {
                context.console.err("Error: \(path): \(e)")
                failed = true
            } catch let e as FileOpenError {
                // Not a regular file, a symlink, or over the size limit: refused before a byte is read.
                context.console.err("Error: \(path): \(e)")
                failed = true
            } catch let e as FileChange {
                // Grew or changed while read (a /proc file's size is not its content): nothing stored.
                context.console.err("Error: \(path): \(e)")
                failed = true
            }
        }
        return failed ? .failure : .success
    }
}
