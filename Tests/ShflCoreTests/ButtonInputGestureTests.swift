import ShflCore
import ShflSimulated
import Testing

func ms(_ value: Int64) -> Instant { .milliseconds(value) }

/// The edges queued on `lines`, in the order they happened (by time; a button's own order kept).
func happenedEdges(_ lines: SimulatedButtonLines) throws -> [ButtonEdge] {
    var edges: [ButtonEdge] = []
    try lines.readEdges(into: &edges)
    return edges.enumerated()
        .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        .map(\.element)
}

/// Feeds `edges` (in the order they happened) to `input` the way the event loop does: it wakes
/// at the next edge or `nextDeadline`, `latency()` late, reads every edge that has happened by
/// then, handles them, and finally advances to `end`. Checks that every gesture lies in the
/// time span its call processed, and with `exact`, that gestures fire at the wake-up instant
/// itself (so `nextDeadline` named it exactly).
func runEventLoop(
    _ input: inout ButtonInput, edges: [ButtonEdge], until end: Instant,
    levelChanges: inout [SettledLevelChange], exact: Bool = false,
    latency: () -> Duration = { .zero }
) -> [RecognizedGesture] {
    var pending = edges[...]
    var recognized: [RecognizedGesture] = []
    while true {
        let candidates = [pending.first?.time, input.nextDeadline].compactMap { $0 }
        guard let due = candidates.min(), due <= end else { break }
        let wake = min(due + latency(), end)
        let delivered = pending.prefix { $0.time <= wake }
        pending.removeFirst(delivered.count)
        let before = input.processedUntil
        let fired = input.handle(Array(delivered), now: wake, levelChanges: &levelChanges)
        #expect(fired.allSatisfy { $0.time > before && $0.time <= wake })
        if exact { #expect(fired.allSatisfy { $0.time == wake }) }
        recognized += fired
    }
    recognized += input.handle(Array(pending), now: end, levelChanges: &levelChanges)
    return recognized
}

/// Runs a script of edges on all four buttons from time zero to `end` with exact wake-ups.
func recognize(
    settings: GestureSettings = .standard, pressedAtStart: Set<Button> = [], until end: Instant,
    script: (SimulatedButtonLines) -> Void
) throws -> [RecognizedGesture] {
    var levels: [Button: ButtonLevel] = [:]
    for button in pressedAtStart { levels[button] = .pressed }
    let lines = SimulatedButtonLines(buttons: Button.allCases, levels: levels)
    var initial: [Button: ButtonLevel] = [:]
    for button in lines.buttons { initial[button] = try lines.level(of: button) }
    script(lines)
    var input = ButtonInput(settings: settings, initialLevels: initial, now: .zero)
    var changes: [SettledLevelChange] = []
    return runEventLoop(&input, edges: try happenedEdges(lines), until: end, levelChanges: &changes, exact: true)
}

func gesture(_ gesture: Gesture, _ button: Button, at millis: Int64) -> RecognizedGesture {
    RecognizedGesture(gesture, button: button, time: ms(millis))
}

@Suite struct ButtonInputGestureTests {
    @Test func defaultsFollowTheSpecification() {
        let settings = GestureSettings.standard
        #expect(settings.settleTime == .milliseconds(20))
        #expect(settings.binding(for: .play) == .pressOrHold(press: .playPause, holds: [
            .init(after: .seconds(2), gesture: .announceCapacity), .init(after: .seconds(6), gesture: .powerOff),
        ]))
        #expect(settings.binding(for: .skip) == .pressOrHold(press: .skip, holds: [
            .init(after: .seconds(2), gesture: .reshuffle),
        ]))
        let typematic = ButtonBinding.Repeat(delay: .milliseconds(500), interval: .milliseconds(250))
        #expect(settings.binding(for: .volumeUp) == .press(.volumeUp, repeating: typematic))
        #expect(settings.binding(for: .volumeDown) == .press(.volumeDown, repeating: typematic))
        var noPowerOff = settings
        noPowerOff.powerOffHold = nil
        #expect(noPowerOff.binding(for: .play) == .pressOrHold(press: .playPause, holds: [
            .init(after: .seconds(2), gesture: .announceCapacity),
        ]))
    }

    @Test func aThirtyMillisecondPressWithBounceAtBothEndsCounts() throws {
        // Bounce 0–5 ms ending pressed, bounce 25–30 ms ending released: the line is steadily
        // down for exactly the 20 ms settle time, and that is enough.
        let recognized = try recognize(until: ms(1_000)) { lines in
            lines.bounce(.play, to: .pressed, at: ms(0), edges: 6)
            lines.bounce(.play, to: .released, at: ms(25), edges: 6)
        }
        #expect(recognized == [gesture(.playPause, .play, at: 50)])
    }

    @Test func aPressFiresAtTheSettledRelease() throws {
        let recognized = try recognize(until: ms(1_000)) { lines in
            lines.bounce(.skip, to: .pressed, at: ms(100), edges: 3)
            lines.bounce(.skip, to: .released, at: ms(130), edges: 5)
        }
        #expect(recognized == [gesture(.skip, .skip, at: 154)])
    }

    @Test func twoPressesSixtyMillisecondsApartBothCount() throws {
        let recognized = try recognize(until: ms(1_000)) { lines in
            for start: Int64 in [0, 60] {
                lines.bounce(.skip, to: .pressed, at: ms(start), edges: 4, spacing: .microseconds(1_250))
                lines.bounce(.skip, to: .released, at: ms(start + 25), edges: 4, spacing: .microseconds(1_250))
            }
        }
        // Each release burst ends at start + 28.75 ms and settles 20 ms later.
        #expect(recognized == [
            RecognizedGesture(.skip, button: .skip, time: ms(48) + .microseconds(750)),
            RecognizedGesture(.skip, button: .skip, time: ms(108) + .microseconds(750)),
        ])
    }

    @Test func aGlitchShorterThanTheSettleTimeIsNoPress() throws {
        var input = ButtonInput(settings: .standard, initialLevels: [.play: .released], now: .zero)
        let fired = input.handle([
            ButtonEdge(button: .play, level: .pressed, time: ms(10)),
            ButtonEdge(button: .play, level: .released, time: ms(25)),
        ], now: ms(1_000))
        #expect(fired.isEmpty)
        #expect(input.rejectedBurstCount(of: .play) == 1)
        #expect(input.settledLevel(of: .play) == .released)
    }

    /// Holds of exactly the threshold fire the hold: measured from the last edge of the press
    /// to the last edge of the release (both settle 20 ms later), the hold counts from the
    /// settled press.
    @Test(arguments: [
        (Button.play, Int64(1_999), [gesture(.playPause, .play, at: 2_019)]),
        (.play, 2_000, [gesture(.announceCapacity, .play, at: 2_020)]),
        (.play, 2_001, [gesture(.announceCapacity, .play, at: 2_020)]),
        (.play, 5_999, [gesture(.announceCapacity, .play, at: 2_020)]),
        (.play, 6_000, [gesture(.announceCapacity, .play, at: 2_020), gesture(.powerOff, .play, at: 6_020)]),
        (.play, 6_001, [gesture(.announceCapacity, .play, at: 2_020), gesture(.powerOff, .play, at: 6_020)]),
        (.skip, 1_999, [gesture(.skip, .skip, at: 2_019)]),
        (.skip, 2_000, [gesture(.reshuffle, .skip, at: 2_020)]),
        (.skip, 2_001, [gesture(.reshuffle, .skip, at: 2_020)]),
        (.skip, 9_000, [gesture(.reshuffle, .skip, at: 2_020)]),
    ])
    func holdsJustBelowAtAndAboveEachThreshold(
        button: Button, heldMillis: Int64, expected: [RecognizedGesture]
    ) throws {
        let recognized = try recognize(until: ms(20_000)) { lines in
            lines.press(button, at: ms(0))
            lines.release(button, at: ms(heldMillis))
        }
        #expect(recognized == expected)
    }

    @Test func holdGesturesFireWhileHeldNotAtRelease() throws {
        var input = ButtonInput(settings: .standard, initialLevels: [.play: .released], now: .zero)
        #expect(input.handle([ButtonEdge(button: .play, level: .pressed, time: ms(0))], now: ms(0)).isEmpty)
        #expect(input.advance(to: ms(2_019)).isEmpty)
        #expect(input.advance(to: ms(3_000)) == [gesture(.announceCapacity, .play, at: 2_020)])
        #expect(input.advance(to: ms(6_020)) == [gesture(.powerOff, .play, at: 6_020)])
        #expect(input.nextDeadline == nil)  // still held, nothing more to come
        #expect(input.handle([ButtonEdge(button: .play, level: .released, time: ms(8_000))], now: ms(9_000)).isEmpty)
    }

    @Test func powerOffCanBeDisabled() throws {
        var settings = GestureSettings.standard
        settings.powerOffHold = nil
        let recognized = try recognize(settings: settings, until: ms(20_000)) { lines in
            lines.press(.play, at: ms(0))
            lines.release(.play, at: ms(15_000))
        }
        #expect(recognized == [gesture(.announceCapacity, .play, at: 2_020)])
    }

    @Test func volumeRepeatsWhileHeld() throws {
        let recognized = try recognize(until: ms(5_000)) { lines in
            lines.bounce(.volumeUp, to: .pressed, at: ms(0), edges: 3)  // last edge at 2 ms
            lines.release(.volumeUp, at: ms(1_300))
            lines.press(.volumeDown, at: ms(2_000))
            lines.release(.volumeDown, at: ms(2_100))
        }
        #expect(recognized == [
            gesture(.volumeUp, .volumeUp, at: 22),  // at the settled press
            gesture(.volumeUp, .volumeUp, at: 522),  // first repeat after 500 ms
            gesture(.volumeUp, .volumeUp, at: 772),  // then every 250 ms
            gesture(.volumeUp, .volumeUp, at: 1_022),
            gesture(.volumeUp, .volumeUp, at: 1_272),  // released at 1300, settled at 1320
            gesture(.volumeDown, .volumeDown, at: 2_020),
        ])
    }

    @Test func volumeWithoutRepeatStepsOncePerPress() throws {
        var settings = GestureSettings.standard
        settings.volumeRepeat = nil
        let recognized = try recognize(settings: settings, until: ms(5_000)) { lines in
            lines.press(.volumeDown, at: ms(0))
            lines.release(.volumeDown, at: ms(3_000))
        }
        #expect(recognized == [gesture(.volumeDown, .volumeDown, at: 20)])
    }

    @Test func overlappingButtonsGiveOneGestureEach() throws {
        let presses = try recognize(until: ms(2_000)) { lines in
            lines.bounce(.play, to: .pressed, at: ms(0), edges: 3)
            lines.bounce(.skip, to: .pressed, at: ms(50), edges: 5)
            lines.bounce(.play, to: .released, at: ms(300), edges: 3)
            lines.bounce(.skip, to: .released, at: ms(400), edges: 3)
        }
        #expect(presses == [gesture(.playPause, .play, at: 322), gesture(.skip, .skip, at: 422)])

        let holds = try recognize(until: ms(5_000)) { lines in
            lines.press(.play, at: ms(0))
            lines.press(.skip, at: ms(50))
            lines.press(.volumeUp, at: ms(100))
            lines.release(.volumeUp, at: ms(600))
            lines.release(.play, at: ms(2_500))
            lines.release(.skip, at: ms(2_600))
        }
        #expect(holds == [
            gesture(.volumeUp, .volumeUp, at: 120), gesture(.volumeUp, .volumeUp, at: 620),
            gesture(.announceCapacity, .play, at: 2_020), gesture(.reshuffle, .skip, at: 2_070),
        ])
    }

    @Test func aButtonDownAtStartUpFiresNothingUntilReleasedAndPressedAgain() throws {
        let recognized = try recognize(pressedAtStart: [.play, .volumeUp], until: ms(20_000)) { lines in
            lines.bounce(.play, to: .pressed, at: ms(5), edges: 4)  // bounce while held: still down
            lines.release(.play, at: ms(10_000))
            lines.release(.volumeUp, at: ms(10_000))
            lines.press(.play, at: ms(11_000))
            lines.release(.play, at: ms(11_100))
        }
        #expect(recognized == [gesture(.playPause, .play, at: 11_120)])
    }

    @Test func aStuckButtonStaysSilentAndArmsNoTimer() {
        var input = ButtonInput(
            settings: .standard, initialLevels: [.play: .pressed, .skip: .released, .volumeUp: .pressed],
            now: ms(500))
        #expect(input.isWaitingForRelease(.play))
        #expect(input.isWaitingForRelease(.volumeUp))
        #expect(!input.isWaitingForRelease(.skip))
        #expect(input.nextDeadline == nil)
        #expect(input.advance(to: ms(3_600_000)).isEmpty)
        #expect(input.settledLevel(of: .play) == .pressed)
    }

    @Test func lateDeliveryGivesTheSameGesturesAsOnTime() throws {
        var generator = SeededGenerator(seed: 0x1A7E_0001)
        for _ in 0..<50 {
            let lines = SimulatedButtonLines(buttons: Button.allCases)
            var next = Button.allCases.map { _ in ms(Int64(generator.next(below: 100))) }
            for _ in 0..<40 {
                let index = generator.next(below: Button.allCases.count)
                let button = Button.allCases[index]
                let held = Duration.milliseconds(Int64(10 + generator.next(below: 7_000)))
                let pressAt = next[index]
                lines.bounce(button, to: .pressed, at: pressAt, edges: 1 + generator.next(below: 8))
                lines.bounce(button, to: .released, at: pressAt + held, edges: 1 + generator.next(below: 8))
                next[index] = pressAt + held + .milliseconds(Int64(40 + generator.next(below: 500)))
            }
            let edges = try happenedEdges(lines)
            let end = next.max()! + .seconds(1)
            let initial = Dictionary(uniqueKeysWithValues: Button.allCases.map { ($0, ButtonLevel.released) })

            var onTime = ButtonInput(settings: .standard, initialLevels: initial, now: .zero)
            var onTimeChanges: [SettledLevelChange] = []
            let expected = runEventLoop(&onTime, edges: edges, until: end, levelChanges: &onTimeChanges, exact: true)
            #expect(!expected.isEmpty)

            var late = ButtonInput(settings: .standard, initialLevels: initial, now: .zero)
            var lateChanges: [SettledLevelChange] = []
            let lateGestures = runEventLoop(&late, edges: edges, until: end, levelChanges: &lateChanges) {
                .microseconds(Int64(generator.next(below: 300_000)))
            }
            #expect(lateGestures == expected)
            #expect(lateChanges == onTimeChanges)

            var atOnce = ButtonInput(settings: .standard, initialLevels: initial, now: .zero)
            var atOnceChanges: [SettledLevelChange] = []
            #expect(atOnce.handle(edges, now: end, levelChanges: &atOnceChanges) == expected)
            #expect(atOnceChanges == onTimeChanges)
            #expect(atOnce.clampedEdgeCount == 0)
        }
    }

    @Test func nextDeadlineIsExact() {
        var input = ButtonInput(
            settings: .standard, initialLevels: [.play: .released, .volumeDown: .released], now: .zero)
        var edges = [
            ButtonEdge(button: .play, level: .pressed, time: ms(0)),
            ButtonEdge(button: .volumeDown, level: .pressed, time: ms(6_100)),
            ButtonEdge(button: .volumeDown, level: .released, time: ms(6_700)),
            ButtonEdge(button: .play, level: .released, time: ms(7_000)),
        ][...]
        var deadlines: [Instant] = []
        var fired: [RecognizedGesture] = []
        while true {
            let deadline = input.nextDeadline
            if let edge = edges.first, deadline.map({ edge.time < $0 }) ?? true {
                fired += input.handle([edge], now: edge.time)
                edges.removeFirst()
                continue
            }
            guard let deadline else { break }
            #expect(input.advance(to: deadline - .nanoseconds(1)).isEmpty)
            #expect(input.nextDeadline == deadline)
            deadlines.append(deadline)
            fired += input.advance(to: deadline)
        }
        // Settled PLAY press, its two holds, settled VOL- press, its first repeat, settled VOL-
        // release, settled PLAY release.
        #expect(deadlines == [20, 2_020, 6_020, 6_120, 6_620, 6_720, 7_020].map(ms))
        #expect(fired == [
            gesture(.announceCapacity, .play, at: 2_020), gesture(.powerOff, .play, at: 6_020),
            gesture(.volumeDown, .volumeDown, at: 6_120), gesture(.volumeDown, .volumeDown, at: 6_620),
        ])
    }

    @Test func unwiredOutOfOrderAndFutureEdgesNeverCrash() {
        var input = ButtonInput(settings: .standard, initialLevels: [.skip: .released], now: ms(100))
        // Unwired: ignored and counted.
        #expect(input.handle([ButtonEdge(button: .play, level: .pressed, time: ms(100))], now: ms(100)) == [])
        #expect(input.ignoredEdgeCount == 1)
        #expect(input.settledLevel(of: .play) == nil)
        #expect(input.buttons == [.skip])
        // Older than what was processed, and out of order within a call: clamped.
        let fired = input.handle([
            ButtonEdge(button: .skip, level: .pressed, time: ms(50)),  // → 100
            ButtonEdge(button: .skip, level: .released, time: ms(300)),
            ButtonEdge(button: .skip, level: .pressed, time: ms(200)),  // → 300
        ], now: ms(250))
        #expect(input.clampedEdgeCount == 2)
        #expect(fired.isEmpty)
        #expect(input.processedUntil == ms(300))  // raised to the latest edge
        // Pressed from 100 (settled at 120); the bounce at 300 ends pressed again.
        #expect(input.advance(to: ms(1_000)).isEmpty)
        #expect(input.rejectedBurstCount(of: .skip) == 1)
        #expect(input.settledLevel(of: .skip) == .pressed)
        #expect(input.advance(to: ms(10)).isEmpty)  // time going back: nothing
        #expect(input.processedUntil == ms(1_000))
        // Timestamps at the end of the timeline.
        let last = Instant(nanoseconds: .max)
        #expect(input.handle([ButtonEdge(button: .skip, level: .released, time: last)], now: last) == [
            RecognizedGesture(.reshuffle, button: .skip, time: ms(2_120)),
        ])
        #expect(input.settledLevel(of: .skip) == .released)
        #expect(input.nextDeadline == nil)
    }

    @Test func sillySettingsAreClampedNotFatal() {
        let settings = GestureSettings(
            settleTime: .milliseconds(-5), capacityHold: .seconds(-1), reshuffleHold: .seconds(1_000_000_000),
            powerOffHold: .zero, volumeRepeat: ButtonBinding.Repeat(delay: .zero, interval: .zero))
        var input = ButtonInput(
            settings: settings, initialLevels: [.play: .released, .skip: .released, .volumeUp: .released],
            now: .zero)
        let fired = input.handle([
            ButtonEdge(button: .play, level: .pressed, time: ms(1)),
            ButtonEdge(button: .skip, level: .pressed, time: ms(1)),
            ButtonEdge(button: .volumeUp, level: .pressed, time: ms(1)),
            ButtonEdge(button: .volumeUp, level: .released, time: ms(101)),
        ], now: ms(1_000))
        // Zero settle and zero holds fire at the press, in the configured order; the repeat
        // interval is raised to 10 ms.
        #expect(fired.filter { $0.button == .play } == [
            gesture(.announceCapacity, .play, at: 1), gesture(.powerOff, .play, at: 1),
        ])
        // At the press, then repeats at 1 (no delay), 11, …, 101 (a repeat due with the release
        // still fires).
        #expect(fired.filter { $0.button == .volumeUp }.count == 12)
        #expect(fired.filter { $0.button == .skip }.isEmpty)  // reshuffle clamped to a day
        #expect(input.nextDeadline == ms(1) + ButtonBinding.maximumDuration)
    }

    @Test func descriptions() {
        #expect(Gesture.allCases.map(\.description) == [
            "play/pause", "skip", "announce capacity", "reshuffle", "power off", "volume up", "volume down",
        ])
        #expect(gesture(.announceCapacity, .play, at: 2_020).description == "announce capacity (PLAY) at 2020ms")
        #expect(ButtonBinding.Hold(after: .seconds(6), gesture: .powerOff).description == "power off after 6000ms")
        #expect(ButtonBinding.Repeat(delay: .milliseconds(500), interval: .milliseconds(250)).description
            == "first after 500ms, then every 250ms")
    }
}
