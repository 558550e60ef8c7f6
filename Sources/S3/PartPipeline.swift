import Crypto
import Foundation
import Ground
import Synchronization

/// The parts of one multipart upload in flight. `workers` threads each take the next part
/// number together with a free buffer, read that part straight from the source at its offset
/// (`ByteSource.read(at:)`: sources are shared by readers), computing the part's MD5 and
/// SHA-256 piece by piece as the bytes arrive (one pass, while they are in cache), and upload
/// it. The caller's thread (`feedWhole`) feeds the parts in order to the whole-blob SHA-256 as
/// they finish reading, beside the uploads. A buffer goes back to the free set once its part is
/// both uploaded and hashed, so memory is `buffers × size` whatever the blob's size.
///
/// No deadlock: a part number is taken only with a buffer, so the lowest part not yet hashed
/// always has its buffer and its reader; the first failure wakes and stops everyone.
final class PartPipeline: @unchecked Sendable {
    /// Bytes read (and hashed) at a time within a part.
    static let readPiece = 1 << 20

    let partSize: Int
    let size: Int64
    let parts: Int
    private let storage: [UnsafeMutableRawBufferPointer]
    private let pool: PartBufferPool
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var free: [Int]
    private var nextPart = 1
    /// Part → buffer, for parts read but not yet fed to the whole-blob hash.
    private var read: [Int: Int] = [:]
    /// Per buffer: how many of {upload, whole-blob hash} still use it.
    private var holds: [Int]
    private var etags: [String?]
    private var firstFailure: (any Error)?

    /// `buffers` part buffers of `partSize` bytes from `pool`, given back when the pipeline goes.
    init(buffers: Int, partSize: Int, size: Int64, pool: PartBufferPool) {
        self.partSize = partSize
        self.size = size
        self.pool = pool
        parts = Int((size + Int64(partSize) - 1) / Int64(partSize))
        storage = (0..<buffers).map { _ in pool.take(size: partSize) }
        free = Array(0..<buffers)
        holds = Array(repeating: 0, count: buffers)
        etags = Array(repeating: nil, count: parts)
    }

    deinit { for b in storage { pool.give(b) } }

    /// The byte count of part `part` (1-based).
    func length(of part: Int) -> Int {
        Int(min(Int64(partSize), size - Int64(part - 1) * Int64(partSize)))
    }

    /// The next part to read and a buffer for it; nil when every part is taken or one failed.
    func take() -> (part: Int, buffer: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && firstFailure == nil && nextPart <= parts { condition.wait() }
        guard firstFailure == nil, nextPart <= parts else { return nil }
        let buffer = free.removeLast()
        holds[buffer] = 2
        defer { nextPart += 1 }
        return (nextPart, buffer)
    }

    func buffer(_ index: Int, count: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: storage[index][..<count])
    }

    /// Part `part` is in buffer `index`, whole: the whole-blob hash may read it.
    func didRead(part: Int, buffer index: Int) {
        condition.lock()
        read[part] = index
        condition.broadcast()
        condition.unlock()
    }

    /// Part `part` was uploaded (or given up); its buffer is released once it is also hashed.
    func didUpload(part: Int, buffer index: Int, etag: String?) {
        condition.lock()
        if let etag { etags[part - 1] = etag }
        release(index)
        condition.unlock()
    }

    /// Records the first failure and wakes every waiter. A part that failed before it was read
    /// gives its buffer back whole (`buffer`), so nobody waits for it.
    func fail(_ error: any Error, buffer index: Int? = nil) {
        condition.lock()
        if firstFailure == nil { firstFailure = error }
        if let index { holds[index] = 1; release(index) }
        condition.broadcast()
        condition.unlock()
    }

    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return firstFailure
    }

    /// On the caller's thread: feeds part after part, in order, to `whole` as their reads
    /// finish. Returns early (without throwing) once a part failed.
    func feedWhole(_ whole: MessageDigest) {
        for part in 1...parts {
            condition.lock()
            while read[part] == nil && firstFailure == nil { condition.wait() }
            guard firstFailure == nil, let index = read.removeValue(forKey: part) else {
                condition.unlock()
                return
            }
            condition.unlock()
            whole.update(UnsafeRawBufferPointer(buffer(index, count: length(of: part))))
            condition.lock()
            release(index)
            condition.unlock()
        }
    }

    /// Every part's ETag in order (all must have finished).
    func allETags() throws -> [String] {
        condition.lock()
        defer { condition.unlock() }
        guard etags.allSatisfy({ $0 != nil }) else { throw S3Error(.unavailable, "a part did not finish") }
        return etags.map { $0! }
    }

    /// Called with the lock held.
    private func release(_ index: Int) {
        holds[index] -= 1
        if holds[index] == 0 {
            free.append(index)
            condition.broadcast()
        }
    }
}

extension PartPipeline {
    /// Reads part `part` from `source` (the blob starting at `base`) into buffer `index`,
    /// piece by piece, each piece fed to the part's MD5 and SHA-256 as soon as it arrived.
    /// Returns the part's MD5 and hex SHA-256. Fewer bytes than the part holds is `s3.input`.
    func readPart(_ part: Int, into index: Int, from source: any ByteSource, base: Int64) throws -> (md5: [UInt8], sha256: String) {
        let n = length(of: part)
        let start = base + Int64(part - 1) * Int64(partSize)
        let target = buffer(index, count: n)
        let md5 = MD5(), sha = MessageDigest(.sha256)
        var filled = 0
        while filled < n {
            let piece = UnsafeMutableRawBufferPointer(rebasing: target[filled..<min(n, filled + Self.readPiece)])
            let got: Int
            do { got = try source.read(at: start + Int64(filled), into: piece) } catch {
                throw S3Error(.input, "reading the blob's source failed: \(error)")
            }
            guard got > 0 else {
                throw S3Error(.input, "the source ended after \(start - base + Int64(filled)) of \(size) declared bytes")
            }
            let bytes = UnsafeRawBufferPointer(rebasing: piece[..<got])
            md5.update(bytes)
            sha.update(bytes)
            filled += got
        }
        return (md5.finalize(), Hex.encode(sha.finalize()))
    }
}

/// A flag set once, read from any thread.
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
