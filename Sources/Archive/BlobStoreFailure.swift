import Ground

/// A blob store's failure as callers that do not know the store must tell it apart (issue 14
/// §1): a file the store read from or wrote to failed; the store as a whole cannot be used (no
/// archive, a format this tool does not read, the medium failed), which says nothing of any one
/// blob; or else a verdict on the blob (absent, damaged, not its ID). LMDB's `CASError` is one.
/// Ingest gives a staged file its `errno`, export tells a blob refused from an unusable
/// archive, and the command line picks exit 3 or 1, by these alone.
public protocol BlobStoreFailure: NamedError, CustomStringConvertible {
    /// The input or output file a read or write failed on, and its `errno`; nil otherwise.
    var fileFailure: (path: String, errno: Int32)? { get }
    /// True when the store itself cannot be used (exit 3), not one blob.
    var archiveUnusable: Bool { get }
}
