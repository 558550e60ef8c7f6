import Foundation

/// Hands drafted batches from the drafter thread to the writer, in order, at most `capacity`
/// waiting (each holds its captures' inline bytes), and tells the drafter when every batch
/// handed so far has been committed (it then reads the custody head as the writer left it).
final class DraftHandoff<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var waiting: [Value] = []
    private var handed = 0
    private var committed = 0
    private var finished = false
    private var cancelled = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Waits for room and hands `value` over; false once the run is cancelled.
    func put(_ value: Value) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, waiting.count >= capacity { condition.wait() }
        if cancelled { return false }
        waiting.append(value)
        handed += 1
        condition.broadcast()
        return true
    }

    /// Waits until `put` would not wait (so the drafter leaves the next batch's captures in the
    /// ordered channel, under its memory budget, until it can hand the batch over); false once
    /// cancelled.
    func waitForRoom() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, waiting.count >= capacity { condition.wait() }
        return !cancelled
    }

    /// The next value, waiting for it; nil when the drafter has finished and nothing waits, or
    /// the run is cancelled.
    func take() -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, !finished, waiting.isEmpty { condition.wait() }
        if cancelled || waiting.isEmpty { return nil }
        condition.broadcast()
        return waiting.removeFirst()
    }

    /// The writer committed the value it took last.
    func markCommitted() {
        condition.lock()
        committed += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every value handed over so far is committed; false once cancelled.
    func waitUntilCommitted() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, committed < handed { condition.wait() }
        return !cancelled
    }

    /// The drafter hands over nothing more.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops both sides.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
