import Foundation

/// Hands out indices to workers and gives their results to one consumer in index order.
///
/// At most `window` indices are claimed and not yet taken, and once `minWindow` are, no more
/// while the results waiting weigh `budget` or more (bytes held in memory): a worker waits for
/// a slot before claiming, so the slots always cover the lowest untaken indices and the
/// consumer, waiting for the next index, never waits for a worker that cannot run. A large
/// window lets workers run ahead while the consumer commits; memory stays bounded.
final class OrderedChannel<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private let minWindow: Int
    private let budget: Int
    private let weight: @Sendable (Value) -> Int
    private var nextClaim = 0
    private var taken = 0
    private var ready: [Int: Value] = [:]
    private var readyWeight = 0
    private var cancelled = false

    init(count: Int, window: Int, minWindow: Int, budget: Int, weight: @escaping @Sendable (Value) -> Int) {
        self.count = count
        self.window = max(1, window)
        self.minWindow = max(1, min(minWindow, window))
        self.budget = budget
        self.weight = weight
    }

    private var full: Bool {
        let inFlight = nextClaim - taken
        return inFlight >= window || (inFlight >= minWindow && readyWeight >= budget)
    }

    /// The next index to work on, or nil when all are claimed (or the run is cancelled).
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, nextClaim < count, full { condition.wait() }
        guard !cancelled, nextClaim < count else { return nil }
        nextClaim += 1
        return nextClaim - 1
    }

    func deliver(_ index: Int, _ value: Value) {
        condition.lock()
        ready[index] = value
        readyWeight += weight(value)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the result of `index` (the next one in order); nil once the run is cancelled
    /// (the workers then stop delivering).
    func take(_ index: Int) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let v = removeReady(index) { return v }
            if cancelled { return nil }
            condition.wait()
        }
    }

    /// Waits for the result of `index` until `deadline`; nil when it is not there by then (or
    /// the run is cancelled).
    func take(_ index: Int, until deadline: Date) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let v = removeReady(index) { return v }
            if cancelled { return nil }
            if !condition.wait(until: deadline) { return removeReady(index) }
        }
    }

    /// The result of `index` if it is already there.
    func takeIfReady(_ index: Int) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        return removeReady(index)
    }

    /// Removes and returns the result of `index` if it is there (the lock held), freeing its
    /// slot and weight for the workers.
    private func removeReady(_ index: Int) -> Value? {
        guard let v = ready.removeValue(forKey: index) else { return nil }
        readyWeight -= weight(v)
        taken = index + 1
        condition.broadcast()
        return v
    }

    /// Stops handing out work (workers finish their current item and exit).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
