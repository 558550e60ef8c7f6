import Ground

/// A random-access source over one stored blob of any `BlobStore`, read by ranges
/// (`BlobStore.get(_:range:sink:)`: LMDB's chunks, S3 ranged GETs): nothing is copied out to a
/// file. `verified(_:in:)` first streams the whole blob against its ID (as `export` does), so
/// what is read after is exactly what was stored. A chunk or object that is damaged or gone
/// after that fails the read with the store's own code (`ByteSourceError.storeFailed`:
/// `cas.chunk.damaged`, `cas.chunk.missing`, `s3.integrity.mismatch`, …) at its offset;
/// anything else the store throws is `io.readFailed` (`EIO`).
public struct StoredBlobSource: RangeReadSource {
    public let store: any BlobStore
    public let id: ContentID
    public let count: Int64

    /// The blob `id`, its size from the store (`cas.notFound`, `s3.notFound` when absent).
    public init(_ id: ContentID, in store: any BlobStore) throws {
        self.store = store
        self.id = id
        self.count = try store.get(id, range: 0..<0) { _ in }
    }

    /// The blob `id` whose size the caller already knows (a staged or listed blob).
    public init(_ id: ContentID, count: Int64, in store: any BlobStore) {
        self.store = store
        self.id = id
        self.count = count
    }

    /// The blob `id`, after one streamed pass proving it hashes to `id` (`cas.chunk.damaged`,
    /// `cas.chunk.missing`, `cas.blob.mismatch`, `s3.integrity.mismatch` otherwise).
    public static func verified(_ id: ContentID, in store: any BlobStore) throws -> StoredBlobSource {
        _ = try store.get(id) { _ in }
        return try StoredBlobSource(id, in: store)
    }

    public func readRange(_ range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        _ = try store.get(id, range: range, sink: sink)
    }
}
