#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between threads, reached only while holding its lock.
///
/// The lock is a `pthread_mutex_t`, which the thread sanitizer watches: with the standard
/// library's `Mutex` (a futex in code built without the sanitizer) every access made under the
/// lock is reported as a race, so `make check` could not tell a real race from those.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; nothing `body` does may take this lock again.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
