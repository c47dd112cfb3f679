import ShflCore
import ShflSimulated
import Testing

/// `shfl board-check`'s procedure on simulated lines and manual time, driven the way its event
/// loop drives it: wake at the next edge, debounce deadline, check deadline or LED change.
@Suite struct BoardCheckTests {
    static let pinMap = BoardPinMap(
        name: "pi-4", title: "Raspberry Pi 4", chipLabel: "pinctrl-bcm2711", header: .raspberryPi40,
        buttons: [
            .play: BoardPin(line: 17, headerPin: 11), .skip: BoardPin(line: 27, headerPin: 13),
            .volumeUp: BoardPin(line: 22, headerPin: 15), .volumeDown: BoardPin(line: 23, headerPin: 16),
        ],
        led: BoardPin(line: 24, headerPin: 18))

    struct Run {
        var events: [BoardCheckEvent]
        var check: BoardCheck
        var trace: [LightChange]

        var messages: [String] { events.map { $0.message(on: BoardCheckTests.pinMap) } }
    }

    func run(
        buttons: [Button], timeout: Duration = .seconds(20), pressedAtStart: Set<Button> = [],
        until end: Instant = ms(120_000), script: (SimulatedButtonLines) -> Void
    ) throws -> Run {
        var levels: [Button: ButtonLevel] = [:]
        for button in buttons { levels[button] = pressedAtStart.contains(button) ? .pressed : .released }
        let lines = SimulatedButtonLines(buttons: buttons, levels: levels)
        script(lines)
        var pending = try happenedEdges(lines)[...]
        let clock = ManualClock()
        let light = SimulatedStatusLight(clock: clock)
        var input = ButtonInput(settings: .standard, initialLevels: levels, now: .zero)
        var check = BoardCheck(buttons: buttons, timeout: timeout, start: .zero)
        var events = check.begin(levels: levels)
        try light.setLit(check.light.isLit(at: .zero))
        while !check.isFinished {
            let candidates = [pending.first?.time, input.nextDeadline, check.nextDeadline, check.light.nextChange(after: clock.now)]
            guard let due = candidates.compactMap({ $0 }).min(), due <= end else { break }
            clock.advance(to: due)
            let delivered = pending.prefix { $0.time <= due }
            pending.removeFirst(delivered.count)
            var changes: [SettledLevelChange] = []
            _ = input.handle(Array(delivered), now: due, levelChanges: &changes)
            events += check.handle(changes, now: due)
            try light.setLit(check.light.isLit(at: due))
        }
        return Run(events: events, check: check, trace: light.trace)
    }

    @Test func everyButtonPressedAndReleasedPasses() throws {
        let result = try run(buttons: [.play, .skip]) { lines in
            lines.bounce(.play, to: .pressed, at: ms(3_000), edges: 5)  // last edge 3004, settles 3024
            lines.bounce(.play, to: .released, at: ms(3_200), edges: 3)  // last edge 3202, settles 3222
            lines.press(.skip, at: ms(4_000))
            lines.release(.skip, at: ms(4_100))
        }
        #expect(result.check.isFinished)
        #expect(result.check.failures.isEmpty)
        #expect(result.messages == [
            "LED on GPIO24 (pin 18): blinking 3 times now, watch it",
            "press and release PLAY on GPIO17 (pin 11) (within 20 s)",
            "PLAY pressed: 5 edges over 4ms of contact bounce, accepted 24ms after the first",
            "PLAY released after 198ms: 3 edges over 2ms of contact bounce, accepted 22ms after the first; PLAY ok",
            "press and release SKIP on GPIO27 (pin 13) (within 20 s)",
            "SKIP pressed: 1 clean edge, accepted 20ms after it",
            "SKIP released after 100ms: 1 clean edge, accepted 20ms after it; SKIP ok",
            "board-check: every button works; the LED blinked (did you see it?)",
        ])
        guard case .blinking(3, let until) = result.events.first else {
            Issue.record("no blinks first")
            return
        }
        #expect(until == ms(2_100))
        // Three blinks, then a flicker at the instant each press is accepted.
        #expect(LightChange.render(result.trace) == "off@0ms on@300ms off@600ms on@900ms off@1200ms on@1500ms off@1800ms"
            + " on@3024ms off@3104ms on@4020ms off@4100ms")
    }

    @Test func buttonsNotSeenInTimeAreNamed() throws {
        let result = try run(buttons: [.play, .skip, .volumeUp], timeout: .seconds(5)) { lines in
            lines.press(.skip, at: ms(8_000))  // asked 7100-12100; never released
            lines.press(.volumeUp, at: ms(13_000))
            lines.release(.volumeUp, at: ms(13_100))
        }
        #expect(result.check.failures == [.notPressed(.play), .notReleased(.skip)])
        #expect(result.events.contains(.timedOut(.notPressed(.play))))
        #expect(result.messages.contains("PLAY on GPIO17 (pin 11) not pressed in time: check its wire to the GPIO pin and to GND"))
        #expect(result.messages.contains("SKIP on GPIO27 (pin 13) pressed but not released in time: stuck, or shorted to GND?"))
        #expect(result.messages.contains("VOL+ released after 100ms: 1 clean edge, accepted 20ms after it; VOL+ ok"))
        #expect(result.messages.last == "board-check: FAILED: PLAY on GPIO17 (pin 11) not seen, SKIP on GPIO27 (pin 13) not released")
        // Each button gets its own full timeout, from the moment it is asked for.
        let asked = result.events.compactMap { event -> Button? in
            if case .asking(let button, let within) = event, within == .seconds(5) { return button }
            return nil
        }
        #expect(asked == [.play, .skip, .volumeUp])
    }

    @Test func aPressOfAnotherButtonIsReportedNotCounted() throws {
        let result = try run(buttons: [.play, .skip], timeout: .seconds(5)) { lines in
            lines.press(.skip, at: ms(1_000))  // during the blinks
            lines.release(.skip, at: ms(1_100))
            lines.press(.skip, at: ms(3_000))  // while PLAY is asked for
            lines.release(.skip, at: ms(3_100))
            lines.press(.play, at: ms(4_000))
            lines.release(.play, at: ms(4_100))
            lines.press(.skip, at: ms(5_000))
            lines.release(.skip, at: ms(5_100))
        }
        #expect(result.check.failures.isEmpty)
        #expect(result.messages.contains("SKIP on GPIO27 (pin 13) pressed before the buttons were asked for"))
        #expect(result.messages.contains("SKIP on GPIO27 (pin 13) pressed while waiting for PLAY: are the two wired the other way round?"))
        // Only counted presses flicker the LED.
        #expect(result.trace.filter { $0.lit && $0.instant > ms(2_100) }.map(\.instant) == [ms(4_020), ms(5_020)])
    }

    @Test func aButtonDownAtTheStartMustBeReleasedAndPressedAgain() throws {
        let result = try run(buttons: [.play], pressedAtStart: [.play]) { lines in
            lines.release(.play, at: ms(2_500))
            lines.press(.play, at: ms(3_000))
            lines.release(.play, at: ms(3_100))
        }
        #expect(result.check.failures.isEmpty)
        #expect(result.messages[1] == "PLAY on GPIO17 (pin 11) reads pressed before the check: a stuck button, or its line shorted to GND?")
        #expect(result.messages.contains("PLAY on GPIO17 (pin 11) released (it was down when asked for: press it again)"))
        #expect(result.messages.contains("PLAY released after 100ms: 1 clean edge, accepted 20ms after it; PLAY ok"))
    }

    @Test func nextDeadlineIsTheBlinksEndThenTheTimeout() {
        var check = BoardCheck(buttons: [.play, .play], timeout: .seconds(3), start: ms(1_000))
        #expect(check.buttons == [.play])
        #expect(check.nextDeadline == ms(3_100))
        #expect(check.current == nil)
        #expect(check.handle([], now: ms(3_099)).isEmpty)
        #expect(check.handle([], now: ms(3_100)) == [.asking(.play, within: .seconds(3))])
        #expect(check.current == .play)
        #expect(check.nextDeadline == ms(6_100))
        #expect(check.handle([], now: ms(60_000)) == [.timedOut(.notPressed(.play)), .finished(failures: [.notPressed(.play)])])
        #expect(check.nextDeadline == nil)
        #expect(check.isFinished)
    }

    @Test func timesAreShownToATenthOfAMillisecond() {
        #expect(Duration.nanoseconds(148_337_703).roundedMillisecondsDescription == "148.3ms")
        #expect(Duration.nanoseconds(19_960_000).roundedMillisecondsDescription == "20ms")
        #expect(Duration.nanoseconds(1_250_000).roundedMillisecondsDescription == "1.3ms")
        #expect(Duration.nanoseconds(-500_000).roundedMillisecondsDescription == "-0.5ms")
        #expect(Duration.nanoseconds(-40_000).roundedMillisecondsDescription == "0ms")
        #expect(Duration.zero.roundedMillisecondsDescription == "0ms")
    }
}
