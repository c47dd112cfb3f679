import ShflCore

/// Drives a `StatusLight` from a `LightSchedule` inside the event loop, with a timer
/// descriptor of its own (SPEC §6): the LED changes when the loop wakes for this timer, never
/// by sleeping and never from the audio thread, so a busy audio thread cannot delay it.
///
/// After every event that changes the schedule, and whenever `descriptor` is readable, call
/// `update(_:from:now:)`: it sets the level for `now` and arms the timer at the schedule's next
/// change (or disarms it when nothing will change). A late wake-up shows the level right for
/// the instant it woke at, and later changes keep their instants (see `LightSchedule`).
public struct StatusLightTimer: Sendable {
    public let timer: TimerDescriptor

    public init() throws(Errno) {
        timer = try TimerDescriptor()
    }

    /// The descriptor to watch in `poll()`.
    public var descriptor: FileDescriptor { timer.descriptor }

    /// Sets `light` to the schedule's level at `now` and arms the timer for the next change.
    public func update(_ light: some StatusLight, from schedule: LightSchedule, now: Instant) throws(DeviceError) {
        timer.acknowledge()
        try light.setLit(schedule.isLit(at: now))
        do {
            try timer.arm(at: schedule.nextChange(after: now))
        } catch {
            throw error.deviceError("LED timer: timerfd_settime")
        }
    }

    public func close() {
        timer.close()
    }
}
