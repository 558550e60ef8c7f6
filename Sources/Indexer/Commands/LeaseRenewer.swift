import ArchivePostgres
import Foundation
import Postgres

/// The jobs a worker holds, shared with its `LeaseRenewer`.
final class HeldLeases: @unchecked Sendable {
    private let lock = NSLock()
    private var leases: [Int64: WorkQueue.Lease] = [:]

    func add(_ l: WorkQueue.Lease) { lock.withLock { leases[l.jobId] = l } }
    func remove(_ l: WorkQueue.Lease) { lock.withLock { _ = leases.removeValue(forKey: l.jobId) } }
    var all: [WorkQueue.Lease] { lock.withLock { Array(leases.values) } }

    func removeAll() -> [WorkQueue.Lease] {
        lock.withLock {
            defer { leases = [:] }
            return leases.values.sorted { $0.jobId < $1.jobId }
        }
    }
}

/// Renews every held lease each third of its length on a connection of its own, so a long
/// capture keeps its job; a lease found lost is left to fail the job's commit (fencing).
final class LeaseRenewer: @unchecked Sendable {
    let connection: Connection
    let leases: HeldLeases
    let seconds: Double
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(connection: Connection, leases: HeldLeases, seconds: Double) {
        (self.connection, self.leases, self.seconds) = (connection, leases, seconds)
    }

    func start() {
        let thread = Thread { [self] in
            defer { finished.signal() }
            while stopped.wait(timeout: .now() + seconds / 3) == .timedOut {
                for l in leases.all {
                    _ = try? connection.write { tx in try WorkQueue.renew(l, for: seconds, in: tx) }
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
