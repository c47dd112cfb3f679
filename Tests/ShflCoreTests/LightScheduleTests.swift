import ShflCore
import ShflSimulated
import Testing

@Suite struct LightScheduleTests {
    static let track = TrackPath("song.mp3")
    static let states: [PlaybackState] = [
        .empty, .stopped, .loading(track), .playing(track), .paused(track),
        .error(.allTracksFailed(count: 2)),
    ]
    static let flicker = LightPatterns.acknowledgementDuration

    /// Instants in the middle of every step of the pattern's second period: each lit phase and
    /// each dark phase gets a press.
    static func pressInstants(for pattern: LightPattern, start: Instant) -> [Instant] {
        var instants: [Instant] = []
        var stepStart = start + pattern.duration
        for step in pattern.steps {
            instants.append(stepStart + .nanoseconds(step.duration.nanoseconds / 2))
            stepStart = stepStart + step.duration
        }
        return instants
    }

    /// In every state, a press in a lit phase and in a dark phase changes the LED at once (a
    /// punctual loop shows it within 10 ms), holds it for the flicker, and afterwards the base
    /// pattern is exactly where it would have been without the press.
    @Test(arguments: states)
    func acknowledgementShowsAtOnceAndKeepsThePhase(state: PlaybackState) throws {
        let start = Instant.milliseconds(10_000)
        let pattern = LightPatterns.pattern(for: state)
        let base = LightSchedule(showing: pattern, from: start)
        let end = start + .seconds(10)
        let expectedBase = base.timeline(from: start, until: end)
        var phases = Set<Bool>()

        for press in Self.pressInstants(for: pattern, start: start) {
            let before = base.isLit(at: press)
            phases.insert(before)
            var loop = TestLightLoop(schedule: base, start: start)
            try loop.run(until: end, events: [.press(at: press)])
            let trace = loop.light.trace

            let flickerStart = trace.first { $0.instant >= press }
            #expect(flickerStart?.lit == !before, "press at \(press): \(loop.light.renderedTrace)")
            #expect(flickerStart.map { $0.instant - press < .milliseconds(10) } == true,
                    "press at \(press): \(loop.light.renderedTrace)")
            #expect(level(in: trace, at: press + Self.flicker - .milliseconds(1)) == !before)
            // Afterwards: the base pattern's own changes, at their own instants.
            let after = press + Self.flicker
            #expect(level(in: trace, at: after) == base.isLit(at: after))
            #expect(trace.filter { $0.instant > after } == expectedBase.filter { $0.instant > after },
                    "press at \(press): \(loop.light.renderedTrace)")
        }
        // Steady on has no dark phase; every blinking pattern had a press in both.
        #expect(phases == (pattern.isSteady ? [true] : [true, false]))
    }

    /// Pressing PLAY while playing: the press is acknowledged first, then the state changes to
    /// paused; the LED goes dark at the press instant and stays dark into the paused pattern.
    @Test func pauseShowsAtThePressInstant() throws {
        let press = Instant.milliseconds(5_000)
        let pause = LightEvent(instant: press) { schedule, now in
            schedule.acknowledge(at: now)
            schedule.show(LightPatterns.pattern(for: .paused(Self.track)), from: now)
        }
        var loop = TestLightLoop(schedule: LightSchedule(showing: LightPatterns.steadyOn, from: .zero), start: .zero)
        try loop.run(until: press + .seconds(3), events: [pause])
        #expect(loop.light.renderedTrace == "on@0ms off@5000ms on@6000ms off@7000ms")
    }

    /// Two quick presses: each one changes the LED.
    @Test func everyPressChangesTheLED() throws {
        let presses: [Int64] = [1_000, 1_040, 2_000, 2_040, 2_070]
        var loop = TestLightLoop(schedule: LightSchedule(showing: LightPatterns.steadyOn, from: .zero), start: .zero)
        try loop.run(until: .milliseconds(3_000), events: presses.map { .press(at: .milliseconds($0)) })
        #expect(loop.light.renderedTrace == "on@0ms off@1000ms on@1040ms off@2000ms on@2040ms off@2070ms on@2150ms")
    }

    /// A new state restarts the base pattern at the instant of the change.
    @Test func aStateChangeRestartsThePattern() {
        var schedule = LightSchedule(showing: LightPatterns.slowBlink, from: .zero)
        schedule.show(LightPatterns.fastBlink, from: .milliseconds(1_530))
        #expect(schedule.patternStart == .milliseconds(1_530))
        #expect(LightChange.render(schedule.timeline(from: .milliseconds(1_530), until: .milliseconds(1_900)))
            == "on@1530ms off@1630ms on@1730ms off@1830ms")
    }

    /// Showing the pattern already shown keeps its phase: loading → loading(next track) does
    /// not stutter.
    @Test func showingTheSamePatternKeepsItsPhase() {
        var schedule = LightSchedule(showing: LightPatterns.pattern(for: .loading(Self.track)), from: .zero)
        schedule.show(LightPatterns.pattern(for: .loading(TrackPath("next.mp3"))), from: .milliseconds(1_650))
        #expect(schedule.patternStart == .zero)
        // In the original phase 1700 is dark; restarted at 1650 it would be lit.
        #expect(!schedule.isLit(at: .milliseconds(1_700)))
        #expect(schedule.nextChange(after: .milliseconds(1_650)) == .milliseconds(1_700))
    }

    /// A flicker over steady on: the loop's timer is armed for the flicker's end, then idle.
    @Test func nextChangeAroundAFlicker() {
        var schedule = LightSchedule(showing: LightPatterns.steadyOn, from: .zero)
        schedule.acknowledge(at: .milliseconds(300))
        #expect(schedule.nextChange(after: .milliseconds(100)) == .milliseconds(300))
        #expect(schedule.nextChange(after: .milliseconds(300)) == .milliseconds(380))
        #expect(schedule.nextChange(after: .milliseconds(380)) == nil)
        #expect(schedule.description == "steady on from 0ms, flicker off until 380ms")
    }
}
