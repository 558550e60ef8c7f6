import Crypto
import Ground

/// The archive's blobs, wherever they live: one immutable blob per SHA-256, put once, read back
/// re-hashed. Two implementations: `LMDBBlobStore` (CAS module; chunks in the archive's LMDB
/// environment, the embedded default) and `S3BlobStore` (S3 module; one object per blob in an
/// S3-compatible bucket). Ingest, Export, the query commands and the CLI are meant to reach
/// blobs through this protocol only; `Tests/ArchiveTests` runs one contract suite against
/// every implementation (docs/archive.md).
///
/// Errors are the implementation's typed errors, each with a stable `code` (`NamedError`): a
/// missing blob is `cas.notFound` or `s3.notFound`, bytes that do not hash to their ID are
/// `cas.blob.mismatch` / `cas.chunk.*` or `s3.integrity.mismatch`. Every call blocks its thread;
/// implementations are safe to share between threads.
public protocol BlobStore: AnyObject, Sendable {
    /// Where the blobs live, for `stats` and `show` (never holds a credential).
    var location: BlobLocation { get }

    /// Stores blob `id` — the SHA-256 of the `size` bytes that `source` yields from its
    /// position — unless the store holds it already (`known`; the source is then not
    /// necessarily read). The bytes are re-hashed as they are stored: a source whose bytes are
    /// not `id`, or that holds more or fewer than `size` bytes, fails the put and leaves no blob
    /// that a later `get` could return. Constant memory in `size`.
    func put(_ id: ContentID, size: Int64, from source: inout ByteReader) throws -> BlobPutStatus

    /// The blob's size in bytes, nil when the store does not hold it.
    func size(of id: ContentID) throws -> Int64?

    /// Streams blob `id` whole into `sink`, re-hashing every byte; the last piece is passed on
    /// only once the whole matched `id`, so a sink never receives all of a blob that is not
    /// `id` (the earlier pieces were delivered: a caller writing a file writes to a temporary
    /// name and renames on success). Returns the byte count.
    @discardableResult
    func get(_ id: ContentID, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64

    /// Streams bytes `range` of blob `id` into `sink`, not re-hashed (a part cannot be checked
    /// against the whole's ID; the caller re-hashes what it assembles). A range that does not
    /// lie within the blob (`0 ≤ lower ≤ upper ≤ size`) is refused before any byte reaches the
    /// sink (`cas.range.invalid`, `s3.range.invalid`). Returns the blob's whole size.
    @discardableResult
    func get(_ id: ContentID, range: Range<Int64>, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64

    /// Calls `each` with every blob and its size, in ID order; returns how many there were.
    @discardableResult
    func forEachBlob(_ each: (ContentID, Int64) throws -> Void) throws -> Int

    /// Removes blob `id` (an unreferenced one: the caller checked that no record names it).
    /// Returns false when it was not there. A store under retention refuses with its error.
    @discardableResult
    func delete(_ id: ContentID) throws -> Bool

    /// Reads blob `id` back and re-hashes it: what `audit` reports for one blob.
    func check(_ id: ContentID) throws -> BlobCheck

    /// Whether the archive holds blob `id`, answered from the archive's own records where it
    /// keeps them (S3: the ledger, no request to the bucket); by default `has`. What `audit`
    /// looks every blob a record names up with.
    func holds(_ id: ContentID) throws -> Bool

    /// The blob half of `audit`: every blob (`sample` = 1) or a random fraction, re-hashed;
    /// `progress` gets (blobs done, bytes done). By default `auditBlobs` (`check` per blob);
    /// LMDB's names the missing and damaged chunks too.
    func audit(sample: Double, progress: ((Int, UInt64) -> Void)?) throws -> AuditReport

    /// How many blobs the store holds and their bytes, from its own counts (LMDB: the
    /// environment's; S3: the ledger's); by default summed over `forEachBlob`.
    func totals() throws -> (blobs: Int64, bytes: Int64)

    /// What `stat` shows: how the store keeps blob `id` (LMDB: its chunks; S3: the object's
    /// HEAD); nil when the archive does not hold it.
    func describe(_ id: ContentID) throws -> BlobDescription?

    /// What `gc` sweeps beyond the archive's environment: objects of a store kept elsewhere
    /// that the archive does not list (S3: unlisted objects, unfinished multipart uploads); by
    /// default nil, nothing to sweep (LMDB's chunks are the environment's, `ArchiveAdministration`).
    func collectObjectGarbage() throws -> ObjectGarbageReport?
}

extension BlobStore {
    /// True when the store holds blob `id`.
    public func has(_ id: ContentID) throws -> Bool { try size(of: id) != nil }

    /// Stores `bytes` (hashed here for their ID). Returns the ID and what the put did.
    @discardableResult
    public func put(bytes: [UInt8]) throws -> (id: ContentID, status: BlobPutStatus) {
        let id = ContentID.sha256(of: bytes)
        var reader = ByteReader(MemoryByteSource(bytes))
        return (id, try put(id, size: Int64(bytes.count), from: &reader))
    }

    /// Blob `id` whole in memory, re-hashed (for small blobs: records, manifests, sidecars
    /// under the inline limit).
    public func bytes(of id: ContentID) throws -> [UInt8] {
        var out: [UInt8] = []
        try get(id) { out.append(contentsOf: $0) }
        return out
    }
}

/// What a put did.
public enum BlobPutStatus: String, Sendable, Equatable {
    /// The blob was not in the store before this put.
    case new
    /// The store held the blob already; nothing was written.
    case known
}

/// What reading one blob back found: nothing (`isIntact`), or named problems.
public struct BlobCheck: Sendable, Equatable {
    public let blob: ContentID
    /// Bytes read back and re-hashed.
    public var bytesRead: UInt64
    /// Each problem with its stable code (`cas.notFound`, `cas.chunk.damaged`,
    /// `s3.integrity.mismatch`, …) and a human-readable detail.
    public var problems: [BlobProblem]

    public init(blob: ContentID, bytesRead: UInt64 = 0, problems: [BlobProblem] = []) {
        self.blob = blob
        self.bytesRead = bytesRead
        self.problems = problems
    }

    public var isIntact: Bool { problems.isEmpty }
}

/// One problem of a blob read back.
public struct BlobProblem: Sendable, Equatable, Codable {
    public let code: String
    public let detail: String
    public init(code: String, detail: String) {
        self.code = code
        self.detail = detail
    }
}
