import Archive
import Ground

/// A random-access source over one blob of any `BlobStore` (LMDB, S3), read by range
/// (`BlobStore.get(_:range:sink:)`). The caller proves the whole blob against its ID first
/// (`StoredBlobs.source`), as reverify does, so what is read after is what was stored.
struct BlobByteSource: RangeReadSource {
    let blobs: any BlobStore
    let id: ContentID
    let count: Int64

    func readRange(_ range: Range<Int64>, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try blobs.get(id, range: range, sink: sink)
    }
}

/// The sources of one record's blobs, each read from the store once and proved against its ID:
/// a blob up to `memoryLimit` is held in memory (a still, a sidecar: one re-hashed `get`), a
/// larger one (a video) is streamed once against its ID and then read by range. Memory per
/// record is bounded by `memoryLimit` times the media files it lists, whatever the blob sizes.
struct StoredBlobs {
    let blobs: any BlobStore
    var memoryLimit: Int64 = 4 << 20
    private var cache: [ContentID: any ByteSource] = [:]

    init(_ blobs: any BlobStore, memoryLimit: Int64 = 4 << 20) {
        self.blobs = blobs
        self.memoryLimit = memoryLimit
    }

    /// The blob `id` as a source (`analysis.blobMissing` when the store does not hold it; the
    /// store's own error when its bytes no longer hash to `id`). `whole: false` is for a file
    /// whose facts come from its headers only (ring frames, the audio master): read by range,
    /// never all of it, so not re-hashed here (`audit` re-hashes every blob).
    mutating func source(_ id: ContentID, whole: Bool = true) throws -> any ByteSource {
        if let s = cache[id] { return s }
        guard let size = try blobs.size(of: id) else { throw AnalysisError.blobMissing(id) }
        let s: any ByteSource
        if !whole {
            return BlobByteSource(blobs: blobs, id: id, count: size)
        } else if size <= memoryLimit {
            s = MemoryByteSource(try blobs.bytes(of: id))
        } else {
            try blobs.get(id) { _ in }
            s = BlobByteSource(blobs: blobs, id: id, count: size)
        }
        cache[id] = s
        return s
    }
}
