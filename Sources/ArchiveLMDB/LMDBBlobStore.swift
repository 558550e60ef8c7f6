import Archive
import CAS
import Ground
import LMDB

/// The LMDB implementation of the archive's `BlobStore`: blobs as chunks in the archive
/// directory's environment (`ContentStore`, docs/cas.md), the embedded default.
public final class LMDBBlobStore: BlobStore {
    public let store: ContentStore

    public init(_ store: ContentStore) { self.store = store }

    public var location: BlobLocation { .lmdb(directory: store.directory) }

    /// Streams the source into chunks (committed durably in batches, protected from `gc` by a
    /// pending entry), re-hashing as it goes; only when the bytes are `id` and `size` long is the
    /// blob record written, else the staged chunks are released for `gc` and the put fails with
    /// `cas.blob.mismatch`. A blob already held is `known` without reading the source.
    public func put(_ id: ContentID, size: Int64, from source: inout ByteReader) throws -> BlobPutStatus {
        if try store.contains(id) { return .known }
        let staged = try store.stage(from: &source)
        guard staged.id == id, staged.size == UInt64(max(0, size)) else {
            try CASError.wrapping { try store.environment.write { txn in try store.release(staged, in: txn) } }
            throw CASError.blobMismatch(blob: id, actual: staged.id)
        }
        let isNew = try CASError.wrapping { try store.environment.write { txn in try store.commit(staged, in: txn) } }
        return isNew ? .new : .known
    }

    public func size(of id: ContentID) throws -> Int64? {
        try store.record(of: id).map { Int64($0.size) }
    }

    @discardableResult
    public func get(_ id: ContentID, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var count: Int64 = 0
        try store.read(id, verify: true) { bytes in
            count += Int64(bytes.count)
            try sink(bytes)
        }
        return count
    }

    @discardableResult
    public func get(_ id: ContentID, range: Range<Int64>, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        try store.read(id, range: range, into: sink)
    }

    @discardableResult
    public func forEachBlob(_ each: (ContentID, Int64) throws -> Void) throws -> Int {
        try store.forEachBlob { id, size in try each(id, Int64(size)) }
    }

    @discardableResult
    public func delete(_ id: ContentID) throws -> Bool { try store.deleteBlob(id) }

    /// `ContentStore.audit`: by blob, the missing and damaged chunks named.
    public func audit(sample: Double, progress: ((Int, UInt64) -> Void)?) throws -> AuditReport {
        try store.audit(sample: sample, progress: progress)
    }

    /// The blob's chunks (`ContentStore.record(of:)`); nil when absent.
    public func describe(_ id: ContentID) throws -> BlobDescription? {
        try store.record(of: id).map { record in
            .chunks(size: record.size, chunkSize: record.chunkSize,
                    chunks: record.chunks.enumerated().map { .init(id: $1, bytes: record.length(ofChunk: $0)) })
        }
    }

    /// The environment's blob count and the sum of their sizes (`ContentStore.stats`).
    public func totals() throws -> (blobs: Int64, bytes: Int64) {
        let s = try store.stats()
        return (Int64(s.blobs), Int64(s.logicalBytes))
    }

    /// Every chunk present, of its recorded length and hashing to its ID, and the whole
    /// hashing to `id` (`ContentStore.auditBlob`), as named problems.
    public func check(_ id: ContentID) throws -> BlobCheck {
        let (damage, bytes) = try store.auditBlob(id)
        var check = BlobCheck(blob: id, bytesRead: bytes)
        for chunk in damage.missingChunks {
            check.problems.append(BlobProblem(code: StatusCode.casChunkMissing, detail: "chunk \(chunk.index) (\(chunk.id)) is missing"))
        }
        for chunk in damage.damagedChunks {
            check.problems.append(BlobProblem(code: StatusCode.casChunkDamaged, detail: "chunk \(chunk.index) (\(chunk.id)) does not match its ID"))
        }
        for problem in damage.problems {
            // Each is a code alone or "code: detail" (CASError's description).
            let code = problem.split(separator: ":", maxSplits: 1).first.map(String.init) ?? problem
            check.problems.append(BlobProblem(code: code, detail: problem))
        }
        return check
    }
}
