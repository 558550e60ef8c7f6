import Foundation

/// A process-local readers–writer lock. Read transactions hold it shared; growing the map
/// (`mdb_env_set_mapsize`, which remaps) holds it exclusive, so no borrowed pointer into the
/// old map can outlive the remap.
final class ReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    func withShared<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func withExclusive<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
