import Foundation

/// The exports running against an archive: an export notes its staging folder before it
/// writes its replication event and removes the note once the bag is in place (or the staging
/// folder is gone), so a note whose process is dead names the folder of a killed export, which
/// Export's `ExportRecovery` removes or finishes. LMDB: `ExportJournal` (`ArchiveLMDB`, the
/// environment's `export.pending`).
public protocol ExportJournalStore: Sendable {
    /// Notes `staging` as this process's export (pid and start time).
    func begin(staging: String) throws
    /// Removes the note of `staging`.
    func end(staging: String) throws
    /// Every note.
    func entries() throws -> [ExportJournalEntry]
}

/// One running (or killed) export: its staging folder, the process and when it started.
public struct ExportJournalEntry: Sendable, Equatable {
    public let staging: String
    public let pid: Int32
    public let started: Date

    public init(staging: String, pid: Int32, started: Date) {
        (self.staging, self.pid, self.started) = (staging, pid, started)
    }
}
