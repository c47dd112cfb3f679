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

    /// Starts `body` on a new thread (`pthread_create`).
    public init(_ body: @escaping () -> Void) throws(Errno) {
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
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
