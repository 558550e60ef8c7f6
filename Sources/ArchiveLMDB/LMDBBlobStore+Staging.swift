import Archive
import CAS
import Ground
import LMDB

/// LMDB's staging (docs/cas.md "Put"): a large file's chunks are committed in batches while it
/// is staged (protected from `gc` by a pending entry), a small one is held in memory; `commit`
/// writes every staged blob of a batch — inline chunks, blob records — in one transaction.
extension LMDBBlobStore: BlobStaging {
    /// `ContentStore.put(contentsOf:)`: streamed into chunks, `progress` told each piece.
    public func put(file path: String, progress: (Int) -> Void) throws -> (id: ContentID, size: UInt64, isNew: Bool) {
        let r = try withoutActuallyEscaping(progress) { progress in try store.put(contentsOf: path) { progress($0) } }
        return (r.id, r.size, r.isNew)
    }

    public func stage(confirming file: FileByteSource, inlineLimit: Int) throws -> BlobStage {
        Self.stage(try store.stage(confirming: file, inlineLimit: inlineLimit))
    }

    public func stage(inline bytes: [UInt8]) throws -> BlobStage {
        Self.stage(try store.stage(inline: bytes))
    }

    public func commit(_ staged: [BlobStage]) throws -> [Bool] {
        let blobs = try staged.map(Self.staged)
        if blobs.isEmpty { return [] }
        return try CASError.wrapping { try store.environment.write { txn in try blobs.map { try store.commit($0, in: txn) } } }
    }

    public func release(_ staged: [BlobStage]) throws {
        let blobs = try staged.map(Self.staged).filter { $0.token != nil }
        if blobs.isEmpty { return }
        try CASError.wrapping { try store.environment.write { txn in for s in blobs { try store.release(s, in: txn) } } }
    }

    /// `commit(_:)` then `release(_:)` inside the caller's write transaction of this store's
    /// environment (ingest's writer commits a batch's blobs with the records naming them in one
    /// transaction: one durable commit instead of two or three). Returns for each blob of
    /// `staged` whether it is new. Re-runnable, as `Environment.write` requires.
    public func commit(_ staged: [BlobStage], releasing: [BlobStage], in txn: Transaction) throws -> [Bool] {
        let blobs = try staged.map(Self.staged)
        let released = try releasing.map(Self.staged).filter { $0.token != nil }
        return try CASError.wrapping {
            let isNew = try blobs.map { try store.commit($0, in: txn) }
            for s in released { try store.release(s, in: txn) }
            return isNew
        }
    }

    public func source(of stage: BlobStage) throws -> any ByteSource {
        if let bytes = stage.inlineBytes { return MemoryByteSource(bytes) }
        guard let source = store.source(of: try Self.staged(stage)) else {
            throw CASError.unsupportedFormat("a staged blob whose record does not decode")
        }
        return source
    }

    static func stage(_ s: StagedBlob) -> BlobStage {
        BlobStage(id: s.id, size: s.size, inlineBytes: s.inlineBytes, handle: s)
    }

    static func staged(_ stage: BlobStage) throws -> StagedBlob {
        guard let s = stage.handle as? StagedBlob else {
            throw CASError.unsupportedFormat("a blob staged by another store")
        }
        return s
    }
}
