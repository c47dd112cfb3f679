import CSystem

/// A POSIX thread running a closure, joined explicitly. Embedded Swift has no Foundation
/// `Thread` and no async on aarch64, so the audio thread is one of these.
public final class SystemThread {
    private var thread = pthread_t()
    private var started = false

    private final class Start {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// The stack of a thread started here: 256 KiB, not glibc's 8 MiB default. The audio
    /// thread (mpg123, alsa-lib) touches about 16 KiB of it. Untouched stack is only virtual,
    /// but with `mlockall(MCL_FUTURE)` (the `lock-memory` setting) every page of a new
    /// thread's stack is faulted in and locked: 8 MiB of RSS for nothing.
    public static let stackBytes = 256 * 1024

    /// Starts `body` on a new thread (`pthread_create`) with a `stackBytes` stack.
    public init(_ body: @escaping () -> Void) throws(Errno) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, SystemThread.stackBytes)
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        let result = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
            start.body()
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw Errno(result)
        }
        started = true
    }

    /// Waits for the thread to end (`pthread_join`). Call once.
    public func join() {
        guard started else { return }
        started = false
        pthread_join(thread, nil)
    }

    /// Asks for real-time FIFO scheduling at `priority` for the calling thread
    /// (`pthread_setschedparam`); EPERM without the privilege (callers log and go on).
    public static func requestRealTimeScheduling(priority: Int32) throws(Errno) {
        var parameters = sched_param()
        parameters.sched_priority = priority
        let result = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        if result != 0 { throw Errno(result) }
    }
}
