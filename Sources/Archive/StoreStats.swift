import Foundation

/// Counts of the archive directory's environment (`stats`, `ArchiveAdministration.statistics()`):
/// its blobs and chunks, the map it lives in. LMDB: `ContentStore.stats()`.
public struct StoreStats: Equatable, Sendable, Codable {
    public var blobs = 0
    /// Sum of the blob sizes.
    public var logicalBytes: UInt64 = 0
    public var chunks = 0
    /// Sum of the distinct chunk sizes actually stored.
    public var storedBytes: UInt64 = 0
    /// Chunk references across all blobs (≥ chunks when chunks are shared).
    public var chunkReferences = 0
    /// Puts that started and have not finished (or were killed).
    public var pendingPuts = 0
    public var chunkSize = 0
    public var mapSize = 0
    public var mapUsed = 0
    public var pageSize = 0

    public init() {}

    /// logicalBytes / storedBytes (1 when nothing is shared).
    public var dedupRatio: Double { storedBytes == 0 ? 1 : Double(logicalBytes) / Double(storedBytes) }
}
