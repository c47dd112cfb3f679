import CSystem

/// A POSIX mutex (`pthread_mutex_t`, default attributes) for data shared between two threads
/// that never hold it across I/O: Embedded Swift has no `Mutex`. Never used by the audio
/// thread, which takes no lock.
public final class SystemMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// `pthread_mutex_init`.
    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex (`pthread_mutex_lock` / `pthread_mutex_unlock`).
    public func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
