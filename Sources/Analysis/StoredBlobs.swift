import Archive
import Ground

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
            return StoredBlobSource(id, count: size, in: blobs)
        } else if size <= memoryLimit {
            s = MemoryByteSource(try blobs.bytes(of: id), contentID: id)   // re-hashed against `id` by the store
        } else {
            try blobs.get(id) { _ in }
            s = StoredBlobSource(id, count: size, in: blobs)
        }
        cache[id] = s
        return s
    }
}
