import Archive
import CAS
import Ground

/// `StoredBlobSource` over the LMDB content store (`LMDBBlobStore`).
extension StoredBlobSource {
    /// The blob `id` of the LMDB content store.
    public init(_ id: ContentID, in store: ContentStore) throws {
        try self.init(id, in: LMDBBlobStore(store))
    }

    /// `verified(_:in:)` of the LMDB content store.
    public static func verified(_ id: ContentID, in store: ContentStore) throws -> StoredBlobSource {
        try verified(id, in: LMDBBlobStore(store))
    }
}
