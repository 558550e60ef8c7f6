import Foundation
import Ground

/// The ranges of one blob after its first, fetched by ranged GETs in parallel and handed on in
/// order. `downloadConcurrency` threads each take the next range together with a free buffer
/// (of `partSize`, from the store's pool) and GET it there with `If-Match` on the first
/// answer's ETag (a transfer cut short is resumed by the client); the caller's thread
/// (`deliverInOrder`) takes the ranges in order as they arrive and frees each buffer after.
/// Memory: (downloadConcurrency + 1) × partSize whatever the blob's size.
///
/// No deadlock: a range is taken only with a buffer and ranges are taken in order, so the
/// lowest range not yet handed on is always taken or next; the first failure stops everyone.
final class RangePipeline: @unchecked Sendable {
    /// Bytes handed on at a time (the sink holds the last piece back: keep it small).
    static let piece = 512 * 1024

    private let rangeSize: Int64
    private let start: Int64
    private let size: Int64
    let ranges: Int
    private let storage: [UnsafeMutableRawBufferPointer]
    private let pool: PartBufferPool
    private let workers = DispatchGroup()
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var free: [Int]
    private var next = 0
    private var fetched: [Int: Int] = [:]
    private var failure: (any Error)?
    private var stopped = false

    /// Starts fetching bytes `start..<size` of `key` (whose first answer had `etag`) on the
    /// store's download threads.
    init(store: S3BlobStore, key: String, etag: String, size: Int64, from start: Int64) {
        rangeSize = Int64(store.options.partSize)
        self.start = start
        self.size = size
        ranges = Int((size - start + rangeSize - 1) / rangeSize)
        pool = store.partBuffers
        let buffers = store.options.downloadConcurrency + 1
        storage = (0..<buffers).map { _ in store.partBuffers.take(size: store.options.partSize) }
        free = Array(0..<buffers)
        let (client, bucket) = (store.client, store.bucket)
        for _ in 0..<min(store.options.downloadConcurrency, ranges) {
            workers.enter()
            // Threads of their own, as the multipart put's (GCD runs only as many blocking
            // items at once as there are cores).
            Thread { [self] in
                defer { workers.leave() }
                while let (index, buffer) = take() {
                    let range = self.range(index)
                    let target = storage[buffer]
                    var filled = 0
                    do {
                        try client.get(bucket: bucket, key: key, range: range, ifMatch: etag) { bytes in
                            guard filled + bytes.count <= Int(range.count) else {
                                throw S3Error(.malformedResponse, "GetObject \(key): more bytes than asked for")
                            }
                            (target.baseAddress! + filled).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                            filled += bytes.count
                        }
                        guard filled == Int(range.count) else { throw S3Error(.malformedResponse, "GetObject \(key): the body ended early") }
                        done(index, buffer: buffer)
                    } catch {
                        fail(error, buffer: buffer)
                        return
                    }
                }
            }.start()
        }
    }

    deinit { for b in storage { pool.give(b) } }

    private func range(_ index: Int) -> Range<Int64> {
        let from = start + Int64(index) * rangeSize
        return from..<min(size, from + rangeSize)
    }

    private func take() -> (Int, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !stopped && failure == nil && next < ranges { condition.wait() }
        guard !stopped, failure == nil, next < ranges else { return nil }
        defer { next += 1 }
        return (next, free.removeLast())
    }

    private func done(_ index: Int, buffer: Int) {
        condition.lock()
        fetched[index] = buffer
        condition.broadcast()
        condition.unlock()
    }

    private func fail(_ error: any Error, buffer: Int) {
        condition.lock()
        if failure == nil { failure = error }
        free.append(buffer)
        condition.broadcast()
        condition.unlock()
    }

    /// On the caller's thread: hands range after range, in order, to `each` in pieces of
    /// `piece` bytes as they arrive; throws the first fetch's failure.
    func deliverInOrder(_ each: (UnsafeRawBufferPointer) throws -> Void) throws {
        for index in 0..<ranges {
            condition.lock()
            while fetched[index] == nil && failure == nil { condition.wait() }
            if let failure {
                condition.unlock()
                throw failure
            }
            let buffer = fetched.removeValue(forKey: index)!
            condition.unlock()
            let bytes = UnsafeRawBufferPointer(rebasing: storage[buffer][..<Int(range(index).count)])
            var at = 0
            while at < bytes.count {
                try each(UnsafeRawBufferPointer(rebasing: bytes[at..<min(bytes.count, at + Self.piece)]))
                at += Self.piece
            }
            condition.lock()
            free.append(buffer)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Stops the fetches not yet started and waits for those running (no thread may outlive
    /// the buffers, given back with the pipeline).
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        workers.wait()
    }
}
