import Ground

/// A random-access source over one stored blob, read straight from the store's chunks
/// (`ContentStore.read(_:range:into:)`): nothing is copied out to a file. `verified(_:in:)`
/// first streams the whole blob against its ID (as `export` does), so what is read after
/// is exactly what was stored. A chunk that is damaged or gone after that fails the read with
/// the store's own code (`ByteSourceError.storeFailed`: `cas.chunk.damaged`,
/// `cas.chunk.missing`) at its offset; anything else the store throws is `io.readFailed`
/// (`EIO`).
public struct StoredBlobSource: RangeReadSource {
    public let store: ContentStore
    public let id: ContentID
    public let count: Int64

    /// The blob `id`, its size from its record (`cas.notFound` when absent).
    public init(_ id: ContentID, in store: ContentStore) throws {
        self.store = store
        self.id = id
        self.count = try store.read(id, range: 0..<0) { _ in }
    }

    /// The blob `id`, after one streamed pass proving it hashes to `id` (`cas.chunk.damaged`,
    /// `cas.chunk.missing`, `cas.blob.mismatch` otherwise).
    public static func verified(_ id: ContentID, in store: ContentStore) throws -> StoredBlobSource {
        try store.read(id, verify: true) { _ in }
        return try StoredBlobSource(id, in: store)
    }

    public func readRange(_ range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        _ = try store.read(id, range: range, into: sink)
    }
}
