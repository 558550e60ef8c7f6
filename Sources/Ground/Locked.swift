import Foundation

/// A value behind a lock, for state threads share (caches, pools, result maps).
///
/// The project's lock instead of the standard library's `Synchronization.Mutex`: on Linux,
/// ThreadSanitizer does not see `Mutex`'s acquire and release (its futex-based lock lives in the
/// uninstrumented Synchronization module), so it reports every access made under a `Mutex` as a
/// race, and a TSan run of the pipeline could not tell a real race from the lock (checked with a
/// four-thread program: `Mutex` reported, this type clean; docs/fuzzing.md, "Sanitizers"). This
/// type locks an `NSLock` — a `pthread_mutex`, which TSan intercepts.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; what it returns or throws passes through.
    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
