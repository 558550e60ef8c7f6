import Foundation
import Ground

/// The thread that commits a streaming put's batches, one at a time, while the caller reads
/// and hashes the next batch. Each write transaction begins and commits on this thread.
final class BatchWriter: @unchecked Sendable {
    private let store: ContentStore
    private let queue = DispatchQueue(label: "exhibit.cas.batch-writer")
    private let idle = DispatchSemaphore(value: 1)
    private var error: (any Error)?
    private(set) var token: [UInt8]?

    init(store: ContentStore) { self.store = store }

    /// Starts committing `batch`; the caller must keep its bytes unchanged until `wait()` returns.
    /// Call only after `wait()`.
    func submit(batch: UnsafeRawBufferPointer, lengths: [Int], ids: [ContentID]) {
        idle.wait()
        let first = token == nil
        if first { token = ContentStore.newToken() }
        let token = self.token ?? []
        let job = Job(batch: batch)
        queue.async { [self] in
            defer { idle.signal() }
            do {
                try store.commit(batch: job.batch, lengths: lengths, ids: ids, token: token, first: first)
            } catch {
                self.error = error
            }
        }
    }

    /// Waits for the batch in flight; rethrows its failure.
    func wait() throws {
        idle.wait()
        defer { idle.signal() }
        if let error { throw error }
    }

    /// Waits, ignoring failures (for `defer`).
    func drain() {
        idle.wait()
        idle.signal()
    }

    private struct Job: @unchecked Sendable { let batch: UnsafeRawBufferPointer }
}
