import Archive
import Foundation

/// The jobs a worker holds, shared with its `LeaseRenewer`.
final class HeldLeases: @unchecked Sendable {
    private let lock = NSLock()
    private var leases: [Int64: WorkLease] = [:]

    func add(_ l: WorkLease) { lock.withLock { leases[l.jobId] = l } }
    func remove(_ l: WorkLease) { lock.withLock { _ = leases.removeValue(forKey: l.jobId) } }
    var all: [WorkLease] { lock.withLock { Array(leases.values) } }

    func removeAll() -> [WorkLease] {
        lock.withLock {
            defer { leases = [:] }
            return leases.values.sorted { $0.jobId < $1.jobId }
        }
    }
}

/// Renews every held lease each third of its length on a queue of its own (its own connection),
/// so a long capture keeps its job; a lease found lost is left to fail the job's commit (fencing).
final class LeaseRenewer: @unchecked Sendable {
    let queue: any WorkQueue
    let leases: HeldLeases
    let seconds: Double
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(queue: any WorkQueue, leases: HeldLeases, seconds: Double) {
        (self.queue, self.leases, self.seconds) = (queue, leases, seconds)
    }

    func start() {
        let thread = Thread { [self] in
            defer { finished.signal() }
            while stopped.wait(timeout: .now() + seconds / 3) == .timedOut {
                for l in leases.all {
                    _ = try? queue.renew(l, for: seconds)
                }
            }
        }
        thread.start()
    }

    func stop() {
        stopped.signal()
        finished.wait()
    }
}
