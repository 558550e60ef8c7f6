import Foundation

/// Hands record indexes to the workers and their prepared analyses to the writer, in the order
/// they finish (records are independent: the order changes only the events' order). Workers
/// wait while `limit` prepared records are waiting (memory stays bounded); the writer waits
/// for at least one.
final class AnalysisQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let limit: Int
    private var next = 0
    private var ready: [PreparedAnalysis] = []
    private var cancelled = false

    init(count: Int, limit: Int) {
        self.count = count
        self.limit = max(1, limit)
    }

    /// The next index to prepare, nil when all are claimed or the run stopped.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= limit && !cancelled { condition.wait() }
        guard !cancelled, next < count else { return nil }
        next += 1
        return next - 1
    }

    func deliver(_ p: PreparedAnalysis) {
        condition.lock()
        ready.append(p)
        condition.broadcast()
        condition.unlock()
    }

    /// At least one prepared record (waiting for it), at most `n`.
    func take(upTo n: Int) -> [PreparedAnalysis] {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty { condition.wait() }
        let out = Array(ready.prefix(max(1, n)))
        ready.removeFirst(out.count)
        condition.broadcast()
        return out
    }

    /// Stops handing out work (the writer failed or finished).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
