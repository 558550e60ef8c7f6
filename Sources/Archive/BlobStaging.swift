import Ground

/// A blob store that ingest can stage into (issue 14 §1): workers stage each file of a capture
/// (hashed once, its ID known before anything is visible), and the single writer makes the
/// staged blobs of a batch **durable and visible in one call** (`commit`) before it writes the
/// records that name them. Two implementations: LMDB (`LMDBBlobStore` in CAS: chunks committed
/// in batches while staging, blob records written by `commit` in one transaction) and S3
/// (`S3ArchiveBlobStore` in ArchiveS3: each blob uploaded put-if-absent by the worker that
/// staged it, `commit` records the batch in the archive's blob ledger).
///
/// A staged blob never committed leaves nothing a `get` could return: LMDB chunks nobody
/// references, or an S3 object the ledger does not list; `gc` removes both.
public protocol BlobStaging: BlobStore {
    /// `put FILE`: the file at `path` stored, `progress` told the bytes as they are stored.
    /// By default staged (hashed, and uploaded where the store does), proved unchanged and
    /// committed (`BlobStaging+File.swift`); LMDB streams it into chunks with progress.
    func put(file path: String, progress: (Int) -> Void) throws -> (id: ContentID, size: UInt64, isNew: Bool)

    /// Stages the opened regular file (the caller opened it without following a link): in
    /// memory when it holds at most `inlineLimit` bytes, else streamed in constant memory.
    /// Exactly `file.count` bytes are read; the file is then proved unchanged
    /// (`FileByteSource.confirmUnchanged`) and its `FileChange` thrown otherwise.
    func stage(confirming file: FileByteSource, inlineLimit: Int) throws -> BlobStage

    /// A source over exactly the bytes `staged` holds, for the verifier: memory for an inline
    /// stage; for a streamed one the store's own copy read back (LMDB: the staged chunks; S3:
    /// ranged GETs of the uploaded object), so a dump file's bytes are read from the dump once
    /// (issue 12) and the findings describe what is stored.
    func source(of staged: BlobStage) throws -> any ByteSource

    /// Stages bytes held in memory (a thumbnail).
    func stage(inline bytes: [UInt8]) throws -> BlobStage

    /// Makes the staged blobs visible, durably, in one call; returns for each whether the blob
    /// is new to the archive. Re-runnable: committing a blob twice is `false` the second time.
    func commit(_ staged: [BlobStage]) throws -> [Bool]

    /// Gives up staged blobs (their bytes become garbage for `gc` unless another blob has them).
    func release(_ staged: [BlobStage]) throws

    /// Returns once no staging work the store runs on threads of its own is still in flight
    /// (S3: uploads of small blobs). Ingest calls it before `run` returns or throws, so a
    /// failed run never leaves a thread in the store's C libraries while the process exits.
    func drain()
}

extension BlobStaging {
    /// Nothing runs in the background (LMDB stages on the caller's thread).
    public func drain() {}
}

/// One blob staged by a `BlobStaging` store: its ID and size, its bytes when they are held in
/// memory, and the store's own handle (what `commit` needs).
public struct BlobStage: Sendable {
    public let id: ContentID
    public let size: UInt64
    /// The bytes, when the store holds them in memory until `commit` (small files).
    public let inlineBytes: [UInt8]?
    /// The implementation's own state of the staged blob.
    public let handle: any Sendable

    public init(id: ContentID, size: UInt64, inlineBytes: [UInt8]?, handle: any Sendable) {
        self.id = id
        self.size = size
        self.inlineBytes = inlineBytes
        self.handle = handle
    }

    /// True when the bytes are held in memory until `commit`.
    public var isInline: Bool { inlineBytes != nil }
}
