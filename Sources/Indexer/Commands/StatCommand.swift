import CAS

/// `stat ID`: a blob's size and chunk list.
struct StatCommand: Command {
    static let name = "stat"
    static let abstract = "Show a blob's size and chunks."
    static let discussion = "Text: 'id', 'size', 'chunk-size', 'chunks' lines, then 'chunk <index> <chunk-id> <bytes>' per chunk."
    static let arguments = [ArgumentSpec("id", help: "The blob's SHA-256, 64 hex digits.")]

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = try GetCommand.parseID(args.positionals[0], command: name)
        let store = try context.openStore(access: .readIfNotWritable)
        guard let record = try store.record(of: id) else { throw CASError.notFound(id) }
        let c = context.console
        if context.json {
            let chunks = record.chunks.enumerated().map { i, chunk in
                JSONValue.object([("index", .int(Int64(i))), ("id", .string(chunk.hex)),
                                  ("bytes", .int(Int64(record.length(ofChunk: i))))])
            }
            c.json(.object([("id", .string(id.hex)), ("size", .int(Int64(record.size))),
                            ("chunkSize", .int(Int64(record.chunkSize))), ("chunks", .array(chunks))]))
        } else {
            c.out("id \(id.hex)")
            c.out("size \(record.size)")
            c.out("chunk-size \(record.chunkSize)")
            c.out("chunks \(record.chunks.count)")
            for (i, chunk) in record.chunks.enumerated() { c.out("chunk \(i) \(chunk.hex) \(record.length(ofChunk: i))") }
        }
        return .success
    }
}
