import Crypto
import Foundation
import Ground
import LMDB

/// A blob whose chunks are committed but whose record is not yet written: invisible to get and
/// audit until `commit(_:in:)` writes the record in the caller's transaction.
///
/// A small file is staged in memory instead (`inline`): hashed once, its chunks are written
/// with the record in the caller's transaction, so it costs no write transaction of its own.
public struct StagedBlob: Sendable, Equatable {
    public let id: ContentID
    public let size: UInt64
    /// The encoded `BlobRecord` to write.
    let record: [UInt8]
    /// The `cas.pending` token protecting the chunks from `gc` while this process lives.
    public let token: [UInt8]?
    /// Chunk IDs and the whole content, when staged in memory (chunks not yet written).
    let inline: (ids: [ContentID], bytes: [UInt8])?

    /// True when the bytes are held in memory until `commit`.
    public var isInline: Bool { inline != nil }

    public static func == (a: StagedBlob, b: StagedBlob) -> Bool {
        a.id == b.id && a.size == b.size && a.token == b.token && a.inline?.bytes == b.inline?.bytes
    }
}

extension ContentStore {
    /// Streams `source` into the store in constant memory (chunks committed durably in batches
    /// of `options.batchBytes`, reading and hashing the next batch while the writer thread
    /// commits the last), without making the blob visible. The first batch registers a
    /// `cas.pending` entry with this process's pid, so `gc` leaves the chunks alone while it
    /// lives; a staged blob never committed is collected by a later `gc`.
    public func stage(from source: inout ByteReader, progress: ((Int) -> Void)? = nil) throws -> StagedBlob {
        let perBatch = max(1, options.batchBytes / chunkSize)
        let buffers = (0..<2).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: perBatch * chunkSize, alignment: 4096)
        }
        let writer = BatchWriter(store: self)
        defer {
            writer.drain()
            buffers.forEach { $0.deallocate() }
        }
        let blobHash = MessageDigest(.sha256)
        var ids: [ContentID] = []
        var size: UInt64 = 0
        var ended = false
        var turn = 0
        while !ended {
            // Read and hash batch k+1 while the writer thread commits batch k.
            let buffer = buffers[turn % 2]
            turn += 1
            var lengths: [Int] = []
            while lengths.count < perBatch {
                let slot = UnsafeMutableRawBufferPointer(rebasing: buffer[lengths.count * chunkSize ..< (lengths.count + 1) * chunkSize])
                let n = try CASError.read(&source, into: slot)
                if n > 0 { lengths.append(n) }
                if n < chunkSize { ended = true; break }
            }
            if lengths.isEmpty { break }
            let batch = UnsafeRawBufferPointer(buffer)
            let chunkIDs = Self.hash(batch: batch, chunkSize: chunkSize, lengths: lengths, blob: blobHash)
            try writer.wait()  // batch k is committed; its buffer may be refilled next turn
            // The first batch always commits (it registers the pending token that keeps gc away);
            // a later batch whose chunks are all stored already (a re-ingest) writes nothing.
            let stored = writer.token == nil ? false : try chunksPresent(chunkIDs)
            if !stored {
                writer.submit(batch: batch, lengths: lengths, ids: chunkIDs)
            }
            ids += chunkIDs
            let batchBytes = lengths.reduce(0, +)
            size += UInt64(batchBytes)
            progress?(batchBytes)
        }
        try writer.wait()
        guard let id = ContentID(digest: blobHash.finalize()) else { throw CASError.unsupportedFormat("digest length") }
        return StagedBlob(id: id, size: size, record: BlobRecord(size: size, chunkSize: chunkSize, chunks: ids).encoded(),
                          token: writer.token, inline: nil)
    }

    /// True when every chunk is stored (one read transaction).
    func chunksPresent(_ ids: [ContentID]) throws -> Bool {
        let chunks = self.chunks
        return try CASError.wrapping { try environment.read { txn in try ids.allSatisfy { try txn.contains(chunks, $0) } } }
    }

    /// Stages the regular file `file` (opened by the caller, never through a symlink): in
    /// memory when it holds at most `inlineLimit` bytes, else streamed in committed batches.
    /// Exactly `file.count` bytes are read; the caller checks `file.confirmUnchanged()` before
    /// it uses the result.
    public func stage(_ file: FileByteSource, inlineLimit: Int = 0, progress: ((Int) -> Void)? = nil) throws -> StagedBlob {
        if inlineLimit > 0, file.count <= Int64(inlineLimit) {
            let bytes: [UInt8]
            do { bytes = try file.readAll() } catch { throw CASError.input(path: file.path, errno: error.errno) }
            progress?(bytes.count)
            return try stage(inline: bytes)
        }
        var reader = ByteReader(file)
        return try stage(from: &reader, progress: progress)
    }

    /// Stages the file at `path` (regular files only, never through a symlink): in memory when
    /// it holds at most `inlineLimit` bytes, else streamed in committed batches. A file that
    /// changed while it was read (`io.sourceChanged`) is released and thrown.
    public func stage(contentsOf path: String, inlineLimit: Int = 0, progress: ((Int) -> Void)? = nil) throws -> StagedBlob {
        let file: FileByteSource
        do { file = try FileByteSource(opening: path, limit: FileLimits.current) } catch {
            if case .cannotOpen(let p, let e) = error { throw CASError.input(path: p, errno: e.rawValue) }
            throw error
        }
        return try stage(confirming: file, inlineLimit: inlineLimit, progress: progress)
    }

    /// Stages an opened file (the walk opened it relative to its folder's descriptor) as
    /// `stage(contentsOf:)` does, then proves it unchanged (`FileByteSource.confirmUnchanged`):
    /// a file that changed, grew, or whose `st_size` is not its content (`/proc`) is released
    /// and its `FileChange` (`io.sourceChanged`) thrown.
    public func stage(confirming file: FileByteSource, inlineLimit: Int = 0, progress: ((Int) -> Void)? = nil) throws -> StagedBlob {
        let staged = try stage(file, inlineLimit: inlineLimit, progress: progress)
        do { try file.confirmUnchanged() } catch {
            try? CASError.wrapping { try environment.write { txn in try release(staged, in: txn) } }
            throw error
        }
        return staged
    }

    /// Stages bytes in memory: hashed now (blob digest and chunk IDs), written at `commit`.
    public func stage(inline bytes: [UInt8]) throws -> StagedBlob {
        if bytes.count <= chunkSize, let id = ContentID(digest: MessageDigest.sha256(bytes)) {
            // One chunk: its ID is the blob's ID (one hash).
            let ids = bytes.isEmpty ? [] : [id]
            return StagedBlob(id: id, size: UInt64(bytes.count),
                              record: BlobRecord(size: UInt64(bytes.count), chunkSize: chunkSize, chunks: ids).encoded(),
                              token: nil, inline: (ids, bytes))
        }
        let blobHash = MessageDigest(.sha256)
        var ids: [ContentID] = []
        bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let batchEnd = min(all.count, offset + max(1, options.batchBytes / chunkSize) * chunkSize)
                let lengths = stride(from: offset, to: batchEnd, by: chunkSize).map { min(chunkSize, batchEnd - $0) }
                ids += Self.hash(batch: UnsafeRawBufferPointer(rebasing: all[offset..<batchEnd]), chunkSize: chunkSize,
                                 lengths: lengths, blob: blobHash)
                offset = batchEnd
            }
        }
        guard let id = ContentID(digest: blobHash.finalize()) else { throw CASError.unsupportedFormat("digest length") }
        return StagedBlob(id: id, size: UInt64(bytes.count),
                          record: BlobRecord(size: UInt64(bytes.count), chunkSize: chunkSize, chunks: ids).encoded(),
                          token: nil, inline: (ids, bytes))
    }

    /// Makes a staged blob visible: writes its record (put-if-absent) and drops its pending
    /// entry in the caller's transaction. Returns true when the blob is new. Re-runnable.
    @discardableResult
    public func commit(_ staged: StagedBlob, in txn: Transaction) throws -> Bool {
        try CASError.wrapping {
            if let token = staged.token { _ = try txn.delete(pending, token) }
            if try txn.contains(blobs, staged.id) { return false }
            if let (ids, bytes) = staged.inline {
                try bytes.withUnsafeBytes { all in
                    for (i, id) in ids.enumerated() {
                        let start = i * chunkSize
                        try txn.put(chunks, id.bytes, UnsafeRawBufferPointer(rebasing: all[start ..< min(all.count, start + chunkSize)]),
                                    flags: .noOverwrite)
                    }
                }
            }
            return try txn.put(blobs, staged.id, staged.record, flags: .noOverwrite)
        }
    }

    /// Gives up a staged blob: drops its pending entry (its chunks become garbage for `gc`
    /// unless another blob uses them). Re-runnable.
    public func release(_ staged: StagedBlob, in txn: Transaction) throws {
        try CASError.wrapping { if let token = staged.token { _ = try txn.delete(pending, token) } }
    }
}
