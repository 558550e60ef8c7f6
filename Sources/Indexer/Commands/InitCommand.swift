import CAS

/// `init`: creates the archive directory (0700) and its LMDB environment (files 0600).
struct InitCommand: Command {
    static let name = "init"
    static let abstract = "Create an empty archive (or check an existing one)."
    static let discussion = "Creates the directory (mode 0700) and the LMDB environment data.mdb/lock.mdb (mode 0600)."

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try ContentStore.create(at: context.archivePath, options: context.storeOptions())
        if context.json {
            context.console.json(.object([("archive", .string(store.directory)),
                                          ("chunkSize", .int(Int64(store.chunkSize))),
                                          ("format", .string(ContentStore.format))]))
        } else {
            context.console.out("initialized \(store.directory) (chunk size \(store.chunkSize) bytes)")
        }
        return .success
    }
}
