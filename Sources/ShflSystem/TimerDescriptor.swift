import CSystem
import ShflCore

/// A one-shot timer on `CLOCK_MONOTONIC` as a file descriptor (`timerfd_create(2)`): readable
/// in `poll()` once the armed instant has passed. The event loop arms it at the next deadline
/// of the LED schedule and the gesture recogniser; instants come from `SystemMonotonicClock`.
public struct TimerDescriptor: Sendable {
    public let descriptor: FileDescriptor

    public init() throws(Errno) {
        let raw = try retryingOnInterrupt { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }.get()
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// Fires at `instant` (absolute; an instant in the past fires at once), or never with nil.
    public func arm(at instant: Instant?) throws(Errno) {
        var value = itimerspec()
        if let instant {
            // An all-zero it_value would disarm: the earliest real instant is 1 ns.
            let nanoseconds = max(instant.nanoseconds, 1)
            value.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
            value.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
        }
        _ = try retryingOnInterrupt { timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &value, nil) }.get()
    }

    /// Clears the expiry so `poll()` stops reporting it; returns whether it had fired.
    @discardableResult
    public func acknowledge() -> Bool {
        var expirations: UInt64 = 0
        if case .success(8) = retryingOnInterrupt({ read(descriptor.rawValue, &expirations, 8) }) {
            return expirations > 0
        }
        return false
    }

    public func close() {
        descriptor.close()
    }
}
