/// The process exit codes of `exhibit-archive`.
public enum ExitCode: Int32, Sendable {
    /// Everything succeeded.
    case success = 0
    /// Some item failed or is damaged (the others were processed).
    case failure = 1
    /// The command line was wrong; nothing was done.
    case usage = 2
    /// The archive cannot be used (missing, unreadable, corrupt, disk full).
    case archiveUnusable = 3
}
