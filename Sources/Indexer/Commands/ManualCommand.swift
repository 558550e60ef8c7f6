/// `man`: the manual page (roff) made from the same text as `--help`.
struct ManualCommand: Command {
    static let name = "man"
    static let abstract = "Print the manual page (roff; view it with: exhibit-archive man | man -l -)."
    static let discussion = """
    The page is made from the same text as --help: every subcommand with its overview,
    discussion, usage, arguments and options, then the exit status, the environment variables
    and the files. Install it with: exhibit-archive man > /usr/local/share/man/man1/exhibit-archive.1
    """
    static let usesArchive = false

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        context.console.writeOut(Array(ManualPage(program: CommandRunner.program).roff().utf8))
        return .success
    }

    /// The sections after the commands.
    static let sections: [(title: String, text: String)] = [
        ("Conventions", """
        Options as --name value or --name=value, short -o value, -- ends options; -h/--help on the
        root and every subcommand. Machine output goes to stdout (--json prints JSON Lines: one
        object per line); diagnostics and progress go to stderr. Text output escapes control
        characters (a newline in a name prints as \\n), JSON escapes them as JSON. A misspelt
        subcommand or option is a usage error naming the closest spellings. Filters of query,
        reverify and export --query: a repeated filter or a comma list means OR within that
        filter (--sidecar uncommitted,mismatch); different filters combine with AND.
        """),
        ("Exit status", """
        0 success. 1 some item failed or is damaged; the other items were processed. 2 usage
        error: nothing was done. 3 the archive cannot be used (missing, unsupported format, LMDB
        failure, disk full).
        """),
        ("Environment", """
        EXHIBIT_ARCHIVE: the default archive directory. EXHIBIT_LMDB_MAPSIZE: initial LMDB map
        size in bytes. EXHIBIT_LMDB_WRITEMAP=1: open with MDB_WRITEMAP. EXHIBIT_CAS_CHUNK_SIZE:
        chunk size of a new archive. EXHIBIT_CAS_BATCH_MB: MiB of chunks per write transaction.
        EXHIBIT_MAX_FILE_SIZE: the largest file put, ingest and verify read (bytes, or with K, M,
        G or T; default 1T); a larger one is io.tooLarge.
        EXHIBIT_LIBAV_DIR: where to load libav from. EXHIBIT_CHROMIUM: the Chromium binary that
        export --pdf prints with (default: chromium on PATH). COLUMNS: the width help text is
        wrapped to (default: the terminal's).
        """),
        ("Files", """
        <archive>/data.mdb, lock.mdb: the LMDB environment. <archive>/archive-key.pem,
        archive-cert.pem: the archive's signing key and certificate.
        """),
    ]
}
