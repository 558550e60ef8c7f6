import CAS
import Export

/// `init`: creates the archive directory (0700), its LMDB environment (files 0600) and the
/// archive's P-256 signing key (`archive-key.pem`, 0600) with a self-signed certificate
/// (`archive-cert.pem`) that exports sign their custody report with.
struct InitCommand: Command {
    static let name = "init"
    static let abstract = "Create an empty archive (or check an existing one)."
    static let discussion = """
    Creates the directory (mode 0700) and the LMDB environment data.mdb/lock.mdb (mode 0600).
    Also creates the archive's P-256 signing key archive-key.pem (mode 0600) and its
    self-signed certificate archive-cert.pem, once; running init again keeps them. Exports
    sign custody.json with this key; give its fingerprint to recipients out of band.
    """

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try ContentStore.create(at: context.archivePath, options: context.storeOptions())
        let (key, created) = try ArchiveKey.loadOrCreate(archive: store.directory)
        if context.json {
            context.console.json(.object([("archive", .string(store.directory)),
                                          ("chunkSize", .int(Int64(store.chunkSize))),
                                          ("format", .string(ContentStore.format)),
                                          ("archiveKey", .string(key.fingerprint)),
                                          ("archiveKeyCreated", .bool(created))]))
        } else {
            context.console.out("initialized \(store.directory) (chunk size \(store.chunkSize) bytes)")
            context.console.out("archive key \(key.fingerprint) (\(created ? "created" : "kept") \(ArchiveKey.keyFile), \(ArchiveKey.certificateFile))")
        }
        return .success
    }
}
