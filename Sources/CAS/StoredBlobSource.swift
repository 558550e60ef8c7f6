import Archive
import Ground

/// A random-access source over one stored blob of any `BlobStore`, read by ranges
/// (`BlobStore.get(_:range:sink:)`: LMDB's chunks, S3 ranged GETs): nothing is copied out to a file. `verified(_:in:)`
/// first streams the whole blob against its ID (as `export` does), so what is read after
/// is exactly what was stored. A chunk that is damaged or gone after that is a read failure
/// (`io.readFailed`, `EIO`) at its offset.
public struct StoredBlobSource: ByteSource {
    public let store: any BlobStore
    public let id: ContentID
    public let count: Int64

    /// The blob `id`, its size from the store (`cas.notFound`, `s3.notFound` when absent).
    public init(_ id: ContentID, in store: any BlobStore) throws {
        self.store = store
        self.id = id
        self.count = try store.get(id, range: 0..<0) { _ in }
    }

    /// The blob `id` of the LMDB content store.
    public init(_ id: ContentID, in store: ContentStore) throws {
        try self.init(id, in: LMDBBlobStore(store))
    }

    /// The blob `id`, after one streamed pass proving it hashes to `id` (`cas.chunk.damaged`,
    /// `cas.chunk.missing`, `cas.blob.mismatch`, `s3.integrity.mismatch` otherwise).
    public static func verified(_ id: ContentID, in store: any BlobStore) throws -> StoredBlobSource {
        try store.get(id) { _ in }
        return try StoredBlobSource(id, in: store)
    }

    /// `verified(_:in:)` of the LMDB content store.
    public static func verified(_ id: ContentID, in store: ContentStore) throws -> StoredBlobSource {
        try verified(id, in: LMDBBlobStore(store))
    }

    public func read(at offset: Int64, count n: Int) throws(ByteSourceError) -> [UInt8] {
        let range = try clamp(offset, n)
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        do { try store.get(id, range: range) { out.append(contentsOf: $0) } } catch {
            throw .readFailed(offset: offset, errno: Errno.ioError.rawValue)
        }
        return out
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let range = try clamp(offset, buffer.count)
        var filled = 0
        do {
            try store.get(id, range: range) { part in
                UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + part.count)]).copyMemory(from: part)
                filled += part.count
            }
        } catch {
            throw .readFailed(offset: offset, errno: Errno.ioError.rawValue)
        }
        return filled
    }

    /// `offset..<offset+n` cut at the end; an offset past the end is out of range.
    private func clamp(_ offset: Int64, _ n: Int) throws(ByteSourceError) -> Range<Int64> {
        guard offset >= 0, n >= 0, offset <= count else { throw .outOfRange(offset: offset, count: n) }
        return offset..<min(count, offset + Int64(n))
    }
}
