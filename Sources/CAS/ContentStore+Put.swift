import Crypto
import Foundation
import Ground
import LMDB

/// What a put did.
public struct PutResult: Equatable, Sendable {
    public let id: ContentID
    public let size: UInt64
    /// True when the blob was not in the store before this put.
    public let isNew: Bool
}

extension ContentStore {
    /// Streams `source` into the store in constant memory: chunks are committed durably in
    /// batches of `options.batchBytes`, then the blob record in a last transaction, so the blob
    /// is visible only once all of it is on disk. Put-if-absent: `isNew` says whether the blob
    /// was already known. `progress` receives the byte count of each batch.
    public func put(from source: inout ByteReader, progress: ((Int) -> Void)? = nil) throws -> PutResult {
        try commit(try stage(from: &source, progress: progress))
    }

    /// Commits one batch of chunks (and, for the first, the pending token) durably.
    func commit(batch: UnsafeRawBufferPointer, lengths: [Int], ids: [ContentID], token: [UInt8], first: Bool) throws {
        let env = environment
        let batchBytes = lengths.reduce(0, +)
        try diskFullAware(needed: batchBytes) {
            try env.ensureHeadroom(2 * batchBytes + (4 << 20))
            try env.write { txn in
                if first { try txn.put(pending, token, Self.pendingValue()) }
                for (i, id) in ids.enumerated() {
                    let start = i * chunkSize
                    try txn.put(chunks, id.bytes, UnsafeRawBufferPointer(rebasing: batch[start ..< start + lengths[i]]),
                                flags: .noOverwrite)
                }
            }
        }
        env.noteStreamed(batchBytes)  // the B-tree pages this commit faulted in (Environment+Residency)
    }

    /// Puts the regular file at `path` (streaming, batched commits; never through a symlink).
    /// A file that is not regular, over `limit`, or that changed while it was read (it grew, or
    /// its `st_size` is not its content, as in `/proc`) is refused with its code and nothing of
    /// it becomes visible.
    public func put(contentsOf path: String, limit: Int64 = FileLimits.current,
                    progress: ((Int) -> Void)? = nil) throws -> PutResult {
        let file: FileByteSource
        do { file = try FileByteSource(opening: path, limit: limit) } catch {
            if case .cannotOpen(let p, let e) = error { throw CASError.input(path: p, errno: e.rawValue) }
            throw error
        }
        let staged = try stage(file, progress: progress)
        do { try file.confirmUnchanged() } catch {
            try? CASError.wrapping { try environment.write { txn in try release(staged, in: txn) } }
            throw error
        }
        return try commit(staged)
    }

    /// Makes a staged blob visible in a transaction of its own.
    func commit(_ staged: StagedBlob) throws -> PutResult {
        let env = environment
        let isNew = try diskFullAware(needed: staged.record.count) {
            try env.ensureHeadroom(2 * staged.record.count + (4 << 20))
            return try env.write { txn in try commit(staged, in: txn) }
        }
        return PutResult(id: staged.id, size: staged.size, isNew: isNew)
    }

    /// Puts `bytes` inside the caller's write transaction: chunks and record commit (or abort)
    /// with everything else the caller writes in it. Re-runnable, as `Environment.write` needs.
    public func put<Bytes: ContiguousBytes>(bytes: Bytes, in txn: Transaction) throws -> PutResult {
        var source = ByteReader(MemoryByteSource(bytes.withUnsafeBytes { Array($0) }))
        return try put(from: &source, in: txn)
    }

    /// Puts a whole source inside the caller's write transaction (one chunk buffer of memory;
    /// the transaction's dirty pages hold the rest until commit). If the caller's `write` is
    /// retried after map growth, the source must be re-created, so prefer `put(bytes:in:)` or
    /// a file re-opened inside the closure.
    public func put(from source: inout ByteReader, in txn: Transaction) throws -> PutResult {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 4096)
        defer { buffer.deallocate() }
        let blobHash = MessageDigest(.sha256)
        var ids: [ContentID] = []
        var size: UInt64 = 0
        while true {
            let n = try CASError.read(&source, into: buffer)
            if n == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            let id = Self.hash(batch: chunk, chunkSize: chunkSize, lengths: [n], blob: blobHash)[0]
            try CASError.wrapping { try txn.put(chunks, id, chunk, flags: .noOverwrite) }
            ids.append(id)
            size += UInt64(n)
            if n < chunkSize { break }
        }
        guard let id = ContentID(digest: blobHash.finalize()) else { throw CASError.unsupportedFormat("digest length") }
        let record = BlobRecord(size: size, chunkSize: chunkSize, chunks: ids).encoded()
        let isNew = try CASError.wrapping { try txn.put(blobs, id, record, flags: .noOverwrite) }
        return PutResult(id: id, size: size, isNew: isNew)
    }

    /// Runs `body`, turning an LMDB failure into `.storage`. LMDB reports a short write on a
    /// full disk as `EIO` from `mdb_txn_commit`; when the archive's file system has less free
    /// space than the write needed, the error is reported as `ENOSPC` (`cas.storage.diskFull`).
    @discardableResult
    func diskFullAware<R>(needed: Int, _ body: () throws -> R) throws -> R {
        do { return try CASError.wrapping(body) } catch CASError.storage(let e) where e.code == EIO {
            var fs = statvfs()
            if statvfs(directory, &fs) == 0, UInt64(fs.f_bavail) * UInt64(fs.f_frsize) < UInt64(needed) + (8 << 20) {
                throw CASError.storage(LMDBError(code: ENOSPC, operation: e.operation))
            }
            throw CASError.storage(e)
        }
    }

    /// Hashes a batch: the blob hash runs over the chunks in order while the chunk IDs are
    /// computed on a second thread.
    static func hash(batch: UnsafeRawBufferPointer, chunkSize: Int, lengths: [Int], blob: MessageDigest) -> [ContentID] {
        let ids = UnsafeMutableBufferPointer<ContentID?>.allocate(capacity: lengths.count)
        ids.initialize(repeating: nil)
        defer { ids.deallocate() }
        let work = HashWork(batch: batch, ids: ids, lengths: lengths, chunkSize: chunkSize, blob: blob)
        DispatchQueue.concurrentPerform(iterations: 2) { lane in work.run(lane: lane) }
        return ids.compactMap { $0 }
    }

    static func newToken() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
    }

    static func pendingValue() -> [UInt8] {
        let pid = UInt32(truncatingIfNeeded: getpid())
        let time = UInt64(Date().timeIntervalSince1970)
        return (0..<4).map { UInt8(truncatingIfNeeded: pid >> UInt32(24 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: time >> UInt64(56 - 8 * $0)) }
    }
}

/// The two lanes of hashing one batch (lane 0: the blob digest; lane 1: chunk IDs).
private struct HashWork: @unchecked Sendable {
    let batch: UnsafeRawBufferPointer
    let ids: UnsafeMutableBufferPointer<ContentID?>
    let lengths: [Int]
    let chunkSize: Int
    let blob: MessageDigest

    func run(lane: Int) {
        if lane == 0 {
            for (i, n) in lengths.enumerated() {
                blob.update(UnsafeRawBufferPointer(rebasing: batch[i * chunkSize ..< i * chunkSize + n]))
            }
        } else {
            let h = MessageDigest(.sha256)
            for (i, n) in lengths.enumerated() {
                h.update(UnsafeRawBufferPointer(rebasing: batch[i * chunkSize ..< i * chunkSize + n]))
                ids[i] = ContentID(digest: h.finalize())
            }
        }
    }
}
