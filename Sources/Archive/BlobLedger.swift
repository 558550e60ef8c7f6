import Ground

/// The list of blobs an archive holds when their bytes live in an object store (S3): ID →
/// size, written after the objects are durable, and the **staging marks** that keep `gc` off
/// objects uploaded but not yet listed. Two implementations: the archive directory's LMDB
/// environment (`LMDBBlobLedger` in ArchiveS3: `s3.blobs`, `s3.pending` by pid), and the
/// PostgreSQL index every machine of the archive shares (`PostgresBlobLedger` in
/// ArchivePostgres: `blob_ledger`, `blob_pending` with an expiry), docs/s3.md.
public protocol BlobLedger: AnyObject, Sendable {
    /// The size recorded for `id`, nil when the archive does not hold it.
    func recorded(_ id: ContentID) throws -> Int64?

    /// Records the blobs at once (one transaction); true for each one not listed before.
    func record(_ blobs: [(ContentID, UInt64)]) throws -> [Bool]

    /// Removes `id` from the ledger; true when it was listed.
    func remove(_ id: ContentID) throws -> Bool

    /// Every listed blob with its recorded size, in ID order (bytewise).
    func entries() throws -> [(ContentID, Int64)]

    /// How many blobs are listed and their recorded bytes.
    func totals() throws -> (blobs: Int64, bytes: Int64)

    /// Marks this process as staging (idempotent; renews a mark that expires), before it
    /// uploads an object the ledger does not list yet.
    func markStaging() throws

    /// Runs `sweep` (gc of unlisted objects) unless another live process holds a staging mark;
    /// marks of dead processes (LMDB: pid gone; PostgreSQL: expired) are cleared first. The
    /// PostgreSQL ledger also keeps other processes from marking themselves while `sweep` runs.
    func sweeping<R>(_ sweep: () throws -> R) throws -> LedgerSweep<R>
}

/// What `BlobLedger.sweeping` did: `result` is nil when another live process was staging
/// (nothing swept); `marksCleared` counts dead or expired staging marks removed.
public struct LedgerSweep<R> {
    public var result: R?
    public var marksCleared: Int

    public init(result: R?, marksCleared: Int) {
        self.result = result
        self.marksCleared = marksCleared
    }
}
