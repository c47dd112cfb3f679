import ShflCore

/// The `MonotonicClock` port for tests and the demo: time moves only when told to.
public final class ManualClock: MonotonicClock {
    public private(set) var now: Instant

    public init(now: Instant = .zero) {
        self.now = now
    }

    /// Moves time forward (a negative duration is ignored: monotonic clocks never go back).
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        now = now + duration
    }

    /// Moves time forward to `instant`, if it is later than now.
    public func advance(to instant: Instant) {
        if instant > now { now = instant }
    }
}
