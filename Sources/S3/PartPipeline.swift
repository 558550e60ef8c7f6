import Foundation
import Synchronization

/// The buffers and results of one multipart upload: a fixed set of part buffers handed out to
/// the reader and given back by the upload workers (so memory is `buffers × size` whatever the
/// blob's size), the ETag of each finished part, and the first failure.
final class PartPipeline: @unchecked Sendable {
    private let storage: [UnsafeMutableRawBufferPointer]
    private let available: DispatchSemaphore
    private let state: Mutex<State>

    private struct State {
        var free: [Int]
        var etags: [String?]
        var failure: (any Error)?
    }

    init(buffers: Int, size: Int, parts: Int) {
        storage = (0..<buffers).map { _ in .allocate(byteCount: size, alignment: 16) }
        available = DispatchSemaphore(value: buffers)
        state = Mutex(State(free: Array(0..<buffers), etags: Array(repeating: nil, count: parts)))
    }

    deinit { for b in storage { b.deallocate() } }

    func buffer(_ index: Int) -> UnsafeMutableRawBufferPointer { storage[index] }

    /// A free buffer's index, waiting until a worker gives one back.
    func acquire() -> Int {
        available.wait()
        return state.withLock { $0.free.removeLast() }
    }

    func release(_ index: Int) {
        state.withLock { $0.free.append(index) }
        available.signal()
    }

    func finish(part: Int, etag: String) {
        state.withLock { $0.etags[part - 1] = etag }
    }

    func fail(_ error: any Error) {
        state.withLock { s in if s.failure == nil { s.failure = error } }
    }

    var failure: (any Error)? { state.withLock { $0.failure } }

    /// Every part's ETag in order (all must have finished).
    func etags() throws -> [String] {
        let etags = state.withLock { $0.etags }
        guard etags.allSatisfy({ $0 != nil }) else { throw S3Error(.unavailable, "a part did not finish") }
        return etags.map { $0! }
    }
}

/// A flag set once, read from any thread.
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
