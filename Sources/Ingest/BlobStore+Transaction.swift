import Archive
import CAS
import Ground
import LMDB

extension BlobStore {
    /// Whether this store keeps its blobs in `environment` (the archive's own LMDB chunks), so
    /// a blob can be put in the same write transaction as the records that name it.
    public func keepsBlobs(in environment: Environment) -> Bool {
        (self as? LMDBBlobStore)?.store.environment === environment
    }

    /// Puts `bytes` (put-if-absent, hashed here for their ID) inside the caller's write
    /// transaction `txn` of this store's environment (`keepsBlobs(in:)` must be true): no
    /// transaction and no `fdatasync` of its own, and the blob commits with what names it.
    @discardableResult
    public func put(bytes: [UInt8], in txn: Transaction) throws -> ContentID {
        guard let lmdb = self as? LMDBBlobStore else { preconditionFailure("put(bytes:in:) on a store outside the transaction's environment") }
        var reader = ByteReader(MemoryByteSource(bytes))
        return try lmdb.store.put(from: &reader, in: txn).id
    }
}
