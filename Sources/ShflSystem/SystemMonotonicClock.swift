import CSystem
import ShflCore

/// The `MonotonicClock` port on `clock_gettime(CLOCK_MONOTONIC)`.
public final class SystemMonotonicClock: MonotonicClock {
    public init() {}

    public var now: Instant {
        var time = timespec()
        // CLOCK_MONOTONIC cannot fail on Linux with a valid pointer (EINVAL/EFAULT only).
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return Instant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
