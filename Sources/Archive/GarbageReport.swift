/// `gc`'s reports, one per kind of store it sweeps; the command prints their fields as they are.

/// What `collectGarbage` removed.
public struct GarbageReport: Equatable, Sendable {
    public var chunksRemoved = 0
    public var bytesRemoved: UInt64 = 0
    public var pendingCleared = 0
    /// True when a live put was running, so nothing was collected.
    public var skippedBusy = false
    /// True when a blob record did not decode, so nothing was collected.
    public var skippedDamaged = false

    public init() {}
}

/// What `gc` did to the objects of a blob store kept outside the archive directory (S3's
/// bucket: `S3ArchiveBlobStore.collectGarbage`, also named `S3GarbageReport`).
public struct ObjectGarbageReport: Sendable, Equatable {
    /// Objects under the prefix the ledger does not list, deleted, and their bytes.
    public var objectsRemoved = 0
    public var bytesRemoved: UInt64 = 0
    /// Unlisted objects a retention (Object Lock) kept.
    public var objectsRetained = 0
    /// Multipart uploads never completed, aborted.
    public var uploadsAborted = 0
    /// Staging marks of processes that are gone (`s3.pending`) or expired (`blob_pending`).
    public var pendingCleared = 0
    /// True when another live process was staging: nothing was deleted.
    public var skippedBusy = false

    public init() {}
}
