import Archive
import ArchiveHandle
import ArchiveOpen

extension CommandContext {
    /// The archive factory for `--archive` (or `$EXHIBIT_ARCHIVE`), this process's environment
    /// and the store options it sets (`EXHIBIT_LMDB_*`, `EXHIBIT_CAS_*`; one that cannot be
    /// used is a usage error).
    func opener() throws -> ArchiveOpener {
        do { return try ArchiveOpener.configured(path: archivePath, environment: environment) } catch {
            throw UsageError(error.message)
        }
    }

    /// Opens the existing archive through the one factory (`ArchiveOpener.open`, docs/archive.md).
    /// Reading commands pass `.readIfNotWritable`: an archive this process cannot write
    /// (read-only file system, another user's files, immutable lock.mdb) is then opened
    /// read-only, and any write throws `cas.readOnly` (exit 3).
    public func openArchive(access: ArchiveAccess = .readWrite, blobs: Bool = true) throws -> Archive {
        try opener().open(access: access, blobs: blobs)
    }

    /// The existing archive's work queue (`ArchiveOpener.workQueue`), on a connection of its
    /// own; a usage error when the archive has no PostgreSQL index.
    func workQueue(command: String) throws -> any WorkQueue {
        let (directory, queue) = try opener().workQueue()
        guard let queue else {
            throw UsageError("the archive at \(directory) has no work queue: it needs a PostgreSQL index (init --index postgresql://…)", command: command)
        }
        return queue
    }
}
