import ShflCore
import ShflSimulated
import Testing

/// A scripted input for `TestLightLoop`: something the event loop handles at `instant`.
struct LightEvent {
    var instant: Instant
    var apply: (inout LightSchedule, Instant) -> Void

    static func show(_ pattern: LightPattern, at instant: Instant) -> LightEvent {
        LightEvent(instant: instant) { schedule, now in schedule.show(pattern, from: now) }
    }

    static func press(at instant: Instant) -> LightEvent {
        LightEvent(instant: instant) { schedule, now in schedule.acknowledge(at: now) }
    }

    static func announce(count: Int, at instant: Instant) -> LightEvent {
        LightEvent(instant: instant) { schedule, now in schedule.announce(count: count, at: now) }
    }
}

/// The LED half of the event loop, as the daemon runs it, on manual time: after each event and
/// each timer wake-up it sets the level for "now" and arms the timer at `nextChange(after:)`.
/// The timer fires late by a random amount below `maxLateness` (zero: a punctual loop).
struct TestLightLoop {
    let clock: ManualClock
    let light: SimulatedStatusLight
    var schedule: LightSchedule
    var generator: SeededGenerator
    var maxLateness: Duration
    /// Every instant the loop woke at.
    var wakeUps: [Instant] = []

    init(schedule: LightSchedule, start: Instant, maxLateness: Duration = .zero, seed: UInt64 = 1) {
        self.clock = ManualClock(now: start)
        self.light = SimulatedStatusLight(clock: clock)
        self.schedule = schedule
        self.generator = SeededGenerator(seed: seed)
        self.maxLateness = maxLateness
    }

    /// Runs until just before `end`, handling `events` (in order of their instants).
    mutating func run(until end: Instant, events: [LightEvent] = []) throws {
        try wake()
        var pending = events[...]
        while true {
            var timer = schedule.nextChange(after: clock.now)
            if let due = timer, maxLateness > .zero {
                timer = due + .nanoseconds(generator.next(below: Int(maxLateness.nanoseconds)))
            }
            if let event = pending.first, event.instant < end, timer.map({ event.instant <= $0 }) ?? true {
                pending.removeFirst()
                clock.advance(to: event.instant)
                event.apply(&schedule, clock.now)
            } else if let timer, timer < end {
                clock.advance(to: timer)
            } else {
                return
            }
            try wake()
        }
    }

    private mutating func wake() throws {
        wakeUps.append(clock.now)
        try light.setLit(schedule.isLit(at: clock.now))
    }
}

/// The last change of a trace at or before `instant` (binary search: traces are long).
func lastChange(in trace: [LightChange], atOrBefore instant: Instant) -> LightChange? {
    var low = 0
    var high = trace.count
    while low < high {
        let middle = (low + high) / 2
        if trace[middle].instant <= instant { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : trace[low - 1]
}

/// The level a trace shows at `instant` (dark before its first entry).
func level(in trace: [LightChange], at instant: Instant) -> Bool {
    lastChange(in: trace, atOrBefore: instant)?.lit ?? false
}

@Suite struct LightDriverTests {
    @Test func punctualLoopRecordsExactlyTheTimeline() throws {
        let start = Instant.milliseconds(5_000)
        let schedule = LightSchedule(showing: LightPatterns.tripleBlink, from: start)
        var loop = TestLightLoop(schedule: schedule, start: start)
        try loop.run(until: start + .seconds(10))
        #expect(loop.light.trace == schedule.timeline(from: start, until: start + .seconds(10)),
                "\(loop.light.renderedTrace)")
        // It only wakes when something changes.
        #expect(loop.wakeUps.count == loop.light.trace.count)
    }

    @Test func steadyOnNeedsNoTimer() {
        let schedule = LightSchedule(showing: LightPatterns.steadyOn, from: .zero)
        #expect(schedule.nextChange(after: .zero) == nil)
        #expect(schedule.nextChange(after: .milliseconds(123_456_789)) == nil)
    }

    /// A loop that wakes late, by a different amount every time, shows at every wake-up the
    /// level a punctual loop shows at that instant, and its blinks never drift: after ten
    /// minutes each change still lags the punctual one by less than the lateness.
    @Test func lateIrregularWakeUpsNeverShiftLaterBlinks() throws {
        let start = Instant.milliseconds(1_000)
        let end = start + .seconds(600)
        var events: [LightEvent] = []
        var script = SeededGenerator(seed: 42)
        var instant = start
        let patterns = [LightPatterns.slowBlink, LightPatterns.fastBlink, LightPatterns.heartbeat,
                        LightPatterns.tripleBlink, LightPatterns.steadyOn]
        // Events at irregular instants for about eight minutes, then slow blink alone to the end.
        while instant < start + .seconds(470) {
            instant = instant + .milliseconds(Int64(300 + script.next(below: 9_000)))
            switch script.next(below: 4) {
            case 0: events.append(.announce(count: script.next(below: 121), at: instant))
            case 1: events.append(.show(patterns[script.next(below: patterns.count)], at: instant))
            default: events.append(.press(at: instant))
            }
        }
        events.append(.show(LightPatterns.slowBlink, at: start + .seconds(480)))
        let schedule = LightSchedule(showing: LightPatterns.slowBlink, from: start)

        var punctual = TestLightLoop(schedule: schedule, start: start)
        try punctual.run(until: end, events: events)
        let maxLateness = Duration.milliseconds(50)
        var late = TestLightLoop(schedule: schedule, start: start, maxLateness: maxLateness, seed: 7)
        try late.run(until: end, events: events)

        let reference = punctual.light.trace
        #expect(reference.count > 500)
        #expect(late.light.trace.count > 500)
        #expect(late.light.trace != reference)  // it really was late
        for wake in late.wakeUps {
            #expect(level(in: late.light.trace, at: wake) == level(in: reference, at: wake),
                    "at \(wake)")
        }
        for change in late.light.trace {
            guard let lastPunctual = lastChange(in: reference, atOrBefore: change.instant) else {
                Issue.record("late change \(change) before any punctual one")
                continue
            }
            #expect(lastPunctual.lit == change.lit, "late \(change), punctual \(lastPunctual)")
            #expect(change.instant - lastPunctual.instant < maxLateness, "late \(change), punctual \(lastPunctual)")
        }
        // The quiet stretch: every blink is there, none shifted by more than the lateness.
        let quietStart = start + .seconds(540)
        let punctualQuiet = reference.filter { $0.instant >= quietStart && $0.instant < end - .seconds(1) }
        #expect(punctualQuiet.count == 59)
        let lateTrace = late.light.trace
        for punctualChange in punctualQuiet {
            guard let lateChange = lateTrace.first(where: { $0.instant >= punctualChange.instant }) else {
                Issue.record("no late change after \(punctualChange)")
                continue
            }
            #expect(lateChange.lit == punctualChange.lit, "late \(lateChange), punctual \(punctualChange)")
            #expect(lateChange.instant - punctualChange.instant < maxLateness, "late \(lateChange), punctual \(punctualChange)")
        }
    }

    /// A loop that is very late (it slept through several blinks) shows the right level when it
    /// wakes, not the one it missed, and the next change is still on the original grid.
    @Test func wakingVeryLateJumpsToTheRightPhase() {
        let schedule = LightSchedule(showing: LightPatterns.fastBlink, from: .zero)
        // 1,234 ms is in the lit half of the seventh period (1200..1300).
        #expect(schedule.isLit(at: .milliseconds(1_234)))
        #expect(schedule.nextChange(after: .milliseconds(1_234)) == .milliseconds(1_300))
        #expect(schedule.nextChange(after: .milliseconds(1_300)) == .milliseconds(1_400))
    }

    @Test func patternsKeepTheirPhaseAfterMonthsOfUptime() {
        let start = Instant.milliseconds(3_000)
        let schedule = LightSchedule(showing: LightPatterns.tripleBlink, from: start)
        let periods: Int64 = 1_178_181  // about 30 days of 2.2 s periods
        let periodStart = start + .milliseconds(periods * 2_200)
        #expect(schedule.isLit(at: periodStart))
        #expect(schedule.nextChange(after: periodStart) == periodStart + .milliseconds(200))
        #expect(schedule.nextChange(after: periodStart + .milliseconds(1_000)) == periodStart + .milliseconds(2_200))
    }
}
