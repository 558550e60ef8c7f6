import Archive
import Crypto
import Foundation
import Ground
import LMDB

extension ContentStore {
    /// The blob's record, or nil when the store has no such blob.
    public func record(of id: ContentID) throws -> BlobRecord? {
        try CASError.wrapping {
            try environment.read { txn in try record(of: id, in: txn) }
        }
    }

    /// The blob's record read inside the caller's transaction.
    public func record(of id: ContentID, in txn: Transaction) throws -> BlobRecord? {
        try CASError.wrapping {
            try txn.withValue(blobs, id) { raw -> BlobRecord? in
                guard let raw else { return nil }
                do { return try BlobRecord(decoding: raw) } catch let error as BlobRecord.RecordError {
                    throw CASError.damagedRecord(blob: id, reason: error.code)
                }
            }
        }
    }

    /// True when the store holds the blob.
    public func contains(_ id: ContentID) throws -> Bool {
        try CASError.wrapping { try environment.read { txn in try txn.contains(blobs, id) } }
    }

    /// Streams the blob's bytes to `sink`, chunk by chunk, straight from the map (zero-copy;
    /// the buffer is valid only during the call; a chunk's map pages are released after the call,
    /// so RSS stays bounded whatever the blob's size). With `verify` (the default) the whole blob is
    /// re-hashed as it streams and compared with `id` **before the last chunk is passed on**;
    /// on a mismatch the chunks are re-hashed one by one to name the damaged one, and a typed
    /// error (`.damagedChunk`, `.missingChunk` or `.blobMismatch`) is thrown instead of the
    /// final bytes. The earlier chunks have already been delivered by then: a caller writing a
    /// file writes to a temporary name and renames only on success (`export`, `get -o`).
    public func read(_ id: ContentID, verify: Bool = true,
                     into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try CASError.wrapping {
            try environment.read { txn in try read(id, in: txn, verify: verify, into: sink) }
        }
    }

    /// As `read(_:verify:into:)`, inside the caller's transaction.
    public func read(_ id: ContentID, in txn: Transaction, verify: Bool = true,
                     into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let record = try record(of: id, in: txn) else { throw CASError.notFound(id) }
        let blobHash = MessageDigest(.sha256)
        for (index, chunkID) in record.chunks.enumerated() {
            let bytes = try CASError.wrapping { try chunkID.withUnsafeBytes { try txn.get(chunks, $0) } }
            guard let bytes else { throw CASError.missingChunk(blob: id, index: index, chunk: chunkID) }
            guard bytes.count == record.length(ofChunk: index) else {
                throw CASError.damagedChunk(blob: id, index: index, chunk: chunkID)
            }
            if verify {
                blobHash.update(bytes)
                if index == record.chunks.count - 1 { try checkBlob(id, blobHash, record, txn) }
            }
            try sink(bytes)
            txn.releasePages(of: bytes)  // a streamed blob does not stay resident (docs/cas.md)
            environment.noteStreamed(bytes.count)
        }
        if verify && record.chunks.isEmpty { try checkBlob(id, blobHash, record, txn) }
    }

    /// Compares the streamed digest with `id`; on a mismatch names the first damaged chunk.
    private func checkBlob(_ id: ContentID, _ hash: MessageDigest, _ record: BlobRecord, _ txn: Transaction) throws {
        guard let actual = ContentID(digest: hash.finalize()), actual != id else { return }
        for (index, chunkID) in record.chunks.enumerated() {
            let bytes = try CASError.wrapping { try chunkID.withUnsafeBytes { try txn.get(chunks, $0) } }
            if let bytes, ContentID(of: bytes) != chunkID {
                throw CASError.damagedChunk(blob: id, index: index, chunk: chunkID)
            }
        }
        throw CASError.blobMismatch(blob: id, actual: actual)
    }

    /// A copy of the whole blob (for small blobs; stream large ones with `read`).
    public func bytes(of id: ContentID, verify: Bool = true) throws -> [UInt8] {
        var out: [UInt8] = []
        try read(id, verify: verify) { out.append(contentsOf: $0) }
        return out
    }

    /// Writes the blob to `path` through a temporary file in the same directory, renamed over
    /// `path` only after the whole blob has been verified (so `path` never holds wrong bytes).
    public func export(_ id: ContentID, to path: String, verify: Bool = true) throws {
        try BlobOutput.write(to: path) { sink in try read(id, verify: verify, into: sink) }
    }
}
