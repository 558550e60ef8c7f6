import Ground

/// A blob store's failure as callers that do not know the store must tell it apart (issue 14
/// §1): a file the store read from or wrote to failed; the store as a whole cannot be used (no
/// archive, a format this tool does not read, the medium failed), which says nothing of any one
/// blob; or else a verdict on the blob (absent, damaged, not its ID). LMDB's `CASError` is one.
/// Ingest gives a staged file its `errno`, export tells a blob refused from an unusable
/// archive, and the command line picks exit 3 or 1, by these alone.
public protocol BlobStoreFailure: ArchiveFailure {
    /// The input or output file a read or write failed on, and its `errno`; nil otherwise.
    var fileFailure: (path: String, errno: Int32)? { get }
}

/// An archive whose format this tool does not read (`cas.unsupportedFormat`, exit 3): what the
/// content store says of an environment of another format, and what `query` reports for an
/// index of one (`index.unsupportedFormat`). `CASError.unsupportedFormat` prints this text.
public struct UnsupportedArchiveFormat: BlobStoreFailure, Equatable, Sendable {
    /// The format the archive names.
    public let format: String

    public init(format: String) { self.format = format }

    public var statusCode: String { StatusCode.casUnsupportedFormat }
    public var description: String { "\(statusCode): unsupported archive format \(format)" }
    public var fileFailure: (path: String, errno: Int32)? { nil }
    public var archiveUnusable: Bool { true }
}
