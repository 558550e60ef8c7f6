import Archive
import Crypto
import Foundation
import Ground
import LMDB
import S3

/// Staging into S3: the worker hashes the file, uploads it put-if-absent (the server checks the
/// body against the ID), and proves the file unchanged; `commit` records the batch in the ledger.
extension S3ArchiveBlobStore {
    public func stage(confirming file: FileByteSource, inlineLimit: Int) throws -> BlobStage {
        try ledger.markStaging()
        if inlineLimit > 0, file.count <= Int64(inlineLimit) {
            let bytes = try file.readAll()
            try file.confirmUnchanged()
            return try stage(inline: bytes)
        }
        let id = try Self.hash(file)
        var reader = ByteReader(file)
        do {
            _ = try objects.put(id, size: file.count, from: &reader)
        } catch let e as S3Error where e.code == .integrityRejected || e.code == .integrityMismatch || e.code == .input {
            try file.confirmUnchanged()  // the file changed under the upload: its FileChange
            throw e
        }
        try file.confirmUnchanged()
        return BlobStage(id: id, size: UInt64(file.count), inlineBytes: nil, handle: Staged.uploaded)
    }

    /// Memory for an inline stage; a streamed one is read back from its uploaded object by
    /// ranged GETs (the object exists once `stage` returned, though the ledger lists it only
    /// after `commit`).
    public func source(of stage: BlobStage) throws -> any ByteSource {
        if let bytes = stage.inlineBytes { return MemoryByteSource(bytes) }
        return StoredBlobSource(stage.id, count: Int64(stage.size), in: objects)
    }

    /// Hashes `bytes` and hands their upload to the store's upload threads (at most
    /// `uploadSlots` in flight; the caller waits for a slot): a worker goes on verifying while
    /// its small files travel. `commit` waits for each upload and throws its error.
    public func stage(inline bytes: [UInt8]) throws -> BlobStage {
        try ledger.markStaging()
        let id = ContentID.sha256(of: bytes)
        let ticket = UploadTicket()
        slots.wait()
        inFlight.enter()
        uploads.async { [objects, slots, inFlight] in
            defer {
                slots.signal()
                inFlight.leave()
            }
            do {
                _ = try objects.put(id, bytes: bytes)
                ticket.finish(nil)
            } catch {
                ticket.finish(error)
            }
        }
        return BlobStage(id: id, size: UInt64(bytes.count), inlineBytes: bytes, handle: ticket)
    }

    /// Waits until every staged blob's object is stored (an upload's failure is thrown: the
    /// object store failing stops the ingest), then records them in the ledger in one
    /// transaction.
    public func commit(_ staged: [BlobStage]) throws -> [Bool] {
        for s in staged { try (s.handle as? UploadTicket)?.wait() }
        return try record(staged.map { ($0.id, $0.size) })
    }

    /// Waits for every upload still in flight (after a failed `commit`, the batch's other
    /// uploads may still be running: RGW down, each retried with backoff before it fails).
    public func drain() {
        inFlight.wait()
    }

    /// Nothing to undo: an object the ledger does not list is invisible and `gc` removes it.
    public func release(_ staged: [BlobStage]) throws {}

    enum Staged: Sendable { case uploaded }

    /// SHA-256 of the whole file, streamed in 1 MiB reads.
    static func hash(_ file: FileByteSource) throws -> ContentID {
        let digest = MessageDigest(.sha256)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var reader = ByteReader(file)
        while true {
            let n = try reader.read(into: buffer)
            if n == 0 { break }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
        }
        return digest.finalizeID()
    }
}

/// One upload handed to the store's upload threads: `wait` returns once it is done and throws
/// its error. The error is written before the semaphore is signalled and read after it is
/// waited for.
final class UploadTicket: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var error: (any Error)?

    func finish(_ error: (any Error)?) {
        self.error = error
        done.signal()
    }

    func wait() throws {
        done.wait()
        done.signal()  // a second wait (a re-run commit) returns at once
        if let error { throw error }
    }
}
