import CAS

/// `gc`: removes chunks no blob references (left by killed puts).
struct GCCommand: Command {
    static let name = "gc"
    static let abstract = "Remove chunks left unreferenced by interrupted puts."
    static let discussion = "Does nothing while a put is running in a live process or when a blob record is damaged."

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let r = try context.openStore().collectGarbage()
        if context.json {
            context.console.json(.object([("chunksRemoved", .int(Int64(r.chunksRemoved))),
                                          ("bytesRemoved", .int(Int64(r.bytesRemoved))),
                                          ("pendingCleared", .int(Int64(r.pendingCleared))),
                                          ("skippedBusy", .bool(r.skippedBusy)), ("skippedDamaged", .bool(r.skippedDamaged))]))
        } else if r.skippedBusy {
            context.console.out("gc: skipped, a put is running")
        } else if r.skippedDamaged {
            context.console.out("gc: skipped, a blob record is damaged (run audit)")
        } else {
            context.console.out("gc: removed \(r.chunksRemoved) chunks, \(r.bytesRemoved) bytes, \(r.pendingCleared) interrupted puts")
        }
        return r.skippedDamaged ? .failure : .success
    }
}
