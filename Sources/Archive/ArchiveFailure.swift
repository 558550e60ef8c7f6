import Ground

/// A failure of one of the archive's stores as the command line tells it apart without knowing
/// the store (issue 14 §1): whether the archive as a whole cannot be used — no archive, a format
/// this tool does not read, the medium unreachable or failing, a schema of another version —
/// which is exit 3, or else the failure of one operation (a blob absent or damaged, a lease
/// lost), exit 1. The text after `Error: ` is the error's `description`. Every
/// `BlobStoreFailure` is one; so are S3's `S3Error`, PostgreSQL's `PostgresError` (always
/// unusable: the index unreachable, refused or failing) and `ArchivePostgresError` (unusable
/// for `archive.schema.*`).
public protocol ArchiveFailure: NamedError, CustomStringConvertible {
    /// True when the archive itself cannot be used (exit 3), not one operation.
    var archiveUnusable: Bool { get }
}
