import Foundation
import Ground

/// What `stat` shows of one blob: how its store keeps it.
public enum BlobDescription: Sendable, Equatable {
    /// Chunks in the archive's LMDB environment: the blob's size, the chunk size, and each
    /// chunk's ID and length in order.
    case chunks(size: UInt64, chunkSize: Int, chunks: [Chunk])
    /// One object in a bucket: its key and what its HEAD says.
    case object(size: Int64, key: String, etag: String, versionID: String?, lockMode: String?, retainUntil: Date?)

    public struct Chunk: Sendable, Equatable {
        public let id: ContentID
        public let bytes: Int
        public init(id: ContentID, bytes: Int) { (self.id, self.bytes) = (id, bytes) }
    }
}

/// A blob the archive does not hold, asked for by `stat`: the code and text LMDB's
/// `CASError.notFound` always gave (for S3-backed archives too).
public struct BlobNotHeld: BlobStoreFailure, Equatable {
    public let id: ContentID
    public init(_ id: ContentID) { self.id = id }
    public var statusCode: String { StatusCode.casNotFound }
    public var description: String { "\(statusCode): no blob \(id)" }
    public var fileFailure: (path: String, errno: Int32)? { nil }
    public var archiveUnusable: Bool { false }
}

/// The upkeep of the archive directory's own environment, which every archive has whatever
/// holds its blobs (records, custody, the S3 ledger without an index): what `gc` sweeps first.
/// LMDB: `LMDBArchive`.
public protocol ArchiveAdministration: Sendable {
    /// Removes chunks no blob references (left by killed puts), unless a put is running in a
    /// live process or a blob record is damaged.
    func collectGarbage() throws -> GarbageReport

    /// The environment's figures `stats` prints: its blobs and their bytes, chunks, stored
    /// bytes, chunk references, pending puts, chunk size, map size and use.
    func statistics() throws -> StoreStats
}
