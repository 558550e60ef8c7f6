import Foundation
import Ground

/// Runs `body(0..<count)` on `workers` threads (worker w takes w, w + workers, …) and returns
/// each item's result in item order.
enum ParallelWork {
    static func run<T: Sendable>(_ count: Int, workers: Int, _ body: @Sendable (Int) throws -> T) -> [Result<T, Error>] {
        let box = Slots<T>(count: count)
        let n = max(1, min(workers, count))
        DispatchQueue.concurrentPerform(iterations: n) { w in
            var i = w
            while i < count {
                do { box.set(i, .success(try body(i))) } catch { box.set(i, .failure(error)) }
                i += n
            }
        }
        return box.all().map { $0 ?? .failure(SynthError(StatusCode.synthInternal, "item not run")) }
    }

    /// One result slot per item, written by worker threads under a lock.
    final class Slots<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<T, Error>?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ r: Result<T, Error>) {
            lock.lock(); defer { lock.unlock() }
            slots[i] = r
        }
        func all() -> [Result<T, Error>?] {
            lock.lock(); defer { lock.unlock() }
            return slots
        }
    }
}
