import ShflCore
import ShflSimulated
import Testing

@Suite struct LightPatternTests {
    static let track = TrackPath("Album/song.mp3")
    static let states: [PlaybackState] = [
        .empty, .stopped, .loading(track), .playing(track), .paused(track),
        .error(.allTracksFailed(count: 3)),
    ]

    /// The first ten seconds of each state, as a punctual event loop drives the LED: this pins
    /// the table in `LightPatterns` (milliseconds from the state change).
    @Test(arguments: states)
    func firstTenSecondsOfEveryState(state: PlaybackState) throws {
        let expected: String
        switch state {
        case .playing:
            expected = "on@0ms"
        case .paused, .stopped:
            expected = "off@0ms on@1000ms off@2000ms on@3000ms off@4000ms on@5000ms off@6000ms on@7000ms off@8000ms on@9000ms"
        case .loading:
            var changes: [LightChange] = []
            for index in 0..<100 {
                changes.append(LightChange(at: .milliseconds(Int64(index) * 100), lit: index % 2 == 0))
            }
            expected = LightChange.render(changes)
        case .empty:
            expected = "on@0ms off@100ms on@2000ms off@2100ms on@4000ms off@4100ms on@6000ms off@6100ms on@8000ms off@8100ms"
        case .error:
            expected = "on@0ms off@200ms on@400ms off@600ms on@800ms off@1000ms"
                + " on@2200ms off@2400ms on@2600ms off@2800ms on@3000ms off@3200ms"
                + " on@4400ms off@4600ms on@4800ms off@5000ms on@5200ms off@5400ms"
                + " on@6600ms off@6800ms on@7000ms off@7200ms on@7400ms off@7600ms"
                + " on@8800ms off@9000ms on@9200ms off@9400ms on@9600ms off@9800ms"
        }
        let schedule = LightSchedule(showing: LightPatterns.pattern(for: state), from: .zero)
        #expect(LightChange.render(schedule.timeline(from: .zero, until: .milliseconds(10_000))) == expected)

        var loop = TestLightLoop(schedule: schedule, start: .zero)
        try loop.run(until: .milliseconds(10_000))
        #expect(loop.light.renderedTrace == expected)
    }

    /// The same patterns started at another instant are the same shape, shifted.
    @Test(arguments: states)
    func patternsAreRelativeToTheirStart(state: PlaybackState) {
        let start = Instant.milliseconds(987_654)
        let atZero = LightSchedule(showing: LightPatterns.pattern(for: state), from: .zero)
        let later = LightSchedule(showing: LightPatterns.pattern(for: state), from: start)
        let shifted = atZero.timeline(from: .zero, until: .milliseconds(10_000)).map {
            LightChange(at: start + ($0.instant - Instant.zero), lit: $0.lit)
        }
        #expect(later.timeline(from: start, until: start + .seconds(10)) == shifted)
    }

    /// Stopped and paused both mean "press PLAY" (see `LightPatterns`).
    @Test func stoppedLooksLikePaused() {
        #expect(LightPatterns.pattern(for: .stopped) == LightPatterns.pattern(for: .paused(Self.track)))
    }

    /// Every state's pattern is told from every other's at a glance: one is steady and the
    /// other blinks, or they blink a different number of times per period, or their periods or
    /// their lit fractions differ by at least a factor of two.
    @Test func statePatternsArePairwiseDistinct() {
        var distinct: [LightPattern] = []
        for state in Self.states where !distinct.contains(LightPatterns.pattern(for: state)) {
            distinct.append(LightPatterns.pattern(for: state))
        }
        #expect(distinct.count == 5)
        for (index, first) in distinct.enumerated() {
            for second in distinct[(index + 1)...] {
                #expect(Look(first).isClearlyDifferent(from: Look(second)), "\(first) vs \(second)")
            }
        }
    }

    /// What an eye takes in of a pattern.
    struct Look {
        var steady: Bool
        var pulsesPerPeriod: Int
        var period: Double
        var litFraction: Double

        init(_ pattern: LightPattern) {
            steady = pattern.isSteady
            var pulses = 0
            for (index, step) in pattern.steps.enumerated() where step.lit {
                let previous = pattern.steps[(index + pattern.steps.count - 1) % pattern.steps.count]
                if !previous.lit || pattern.steps.count == 1 { pulses += 1 }
            }
            pulsesPerPeriod = pulses
            period = Double(pattern.duration.milliseconds)
            litFraction = Double(pattern.litDuration.milliseconds) / period
        }

        func isClearlyDifferent(from other: Look) -> Bool {
            func ratio(_ a: Double, _ b: Double) -> Double { max(a, b) / min(a, b) }
            if steady || other.steady { return steady != other.steady || litFraction != other.litFraction }
            return pulsesPerPeriod != other.pulsesPerPeriod
                || ratio(period, other.period) >= 2
                || ratio(litFraction, other.litFraction) >= 2
        }
    }

    @Test func stepsAreNormalised() {
        let pattern = LightPattern(
            "test", repeats: true,
            steps: [.on(100), .on(50), .off(0), .off(-5), .off(200), .on(10), .off(20)])
        #expect(pattern.steps == [.on(150), .off(200), .on(10), .off(20)])
        #expect(pattern.duration == .milliseconds(380))
        #expect(pattern.litDuration == .milliseconds(160))
        #expect(pattern.description == "test: on 150ms, off 200ms, on 10ms, off 20ms, repeating")
    }

    @Test func emptyPatternIsDarkForever() {
        let pattern = LightPattern("nothing", repeats: true, steps: [.on(0)])
        #expect(pattern.steps.isEmpty)
        #expect(pattern.isSteady)
        #expect(!pattern.isLit(atOffset: .seconds(5)))
        #expect(pattern.nextChange(afterOffset: .zero) == nil)
    }

    @Test func changesAcrossTheWrapOfARepeatingPattern() {
        // The last and first steps are both lit: no change at the wrap.
        let pattern = LightPattern("wrap", repeats: true, steps: [.on(100), .off(100), .on(100)])
        #expect(pattern.nextChange(afterOffset: .milliseconds(250)) == .milliseconds(400))
        #expect(pattern.isLit(atOffset: .milliseconds(350)))
        #expect(!pattern.isLit(atOffset: .milliseconds(450)))
        #expect(pattern.nextChange(afterOffset: .milliseconds(-50)) == .milliseconds(100))
    }

    @Test func aPatternPlayedOnceKeepsItsLastLevel() {
        let pattern = LightPattern("once", repeats: false, steps: [.off(100), .on(100)])
        #expect(pattern.nextChange(afterOffset: .zero) == .milliseconds(100))
        #expect(pattern.nextChange(afterOffset: .milliseconds(100)) == nil)
        #expect(pattern.isLit(atOffset: .seconds(60)))
        #expect(pattern.nextChange(afterOffset: .seconds(60)) == nil)
    }
}
