import ShflCore

/// The `StatusLight` port for tests and the demo: remembers every change of the LED with the
/// instant it happened, read from the injected clock.
///
/// The LED's level before the first `setLit(_:)` is unknown (a GPIO line may come up either
/// way), so the first call is always recorded; after it, only real changes are: setting the
/// level the LED already has leaves the trace alone, as it leaves a real LED alone.
public final class SimulatedStatusLight: StatusLight {
    private let clock: any MonotonicClock

    /// Every change so far, oldest first.
    public private(set) var trace: [LightChange] = []

    /// How many times `setLit(_:)` was called successfully, changes or not.
    public private(set) var setCount = 0

    /// When set, every `setLit(_:)` throws this and changes nothing, as a LED line that has
    /// gone away would.
    public var failure: DeviceError?

    public init(clock: any MonotonicClock) {
        self.clock = clock
    }

    /// The LED's level now (dark before the first `setLit(_:)`).
    public var isLit: Bool {
        trace.last?.lit ?? false
    }

    public func setLit(_ lit: Bool) throws(DeviceError) {
        if let failure { throw failure }
        setCount += 1
        if let last = trace.last, last.lit == lit { return }
        trace.append(LightChange(at: clock.now, lit: lit))
    }

    /// The trace on one line ("on@0ms off@100ms ..."), for test failure messages.
    public var renderedTrace: String {
        LightChange.render(trace)
    }

    /// The trace from `start` on: with a level at `start` (the one the LED had then) followed
    /// by the changes after it, so it compares with `LightSchedule.timeline(from:until:)`.
    public func trace(from start: Instant) -> [LightChange] {
        var result: [LightChange] = []
        for change in trace {
            if change.instant <= start {
                result = [LightChange(at: start, lit: change.lit)]
            } else {
                result.append(change)
            }
        }
        return result
    }

    /// Forgets the recorded changes but keeps the current level as the first entry, at the
    /// clock's current instant (so a test can look at one stretch of time on its own).
    public func clearTrace() {
        guard let last = trace.last else { return }
        trace = [LightChange(at: clock.now, lit: last.lit)]
    }
}
