import ShflCore
import ShflSimulated
import Testing

@Suite struct DebouncerTests {
    /// 1,000 presses on PLAY and SKIP, each with a bounce burst of 1–20 edges within 15 ms at
    /// both ends. Press length is the steady time between the last edge of the press burst and
    /// the first edge of the release burst (30 ms–1 s, always longer than the settle time and
    /// shorter than a hold); gaps likewise (30 ms–2 s). Delivered with random wake-up latency.
    @Test func everyBounceBurstYieldsExactlyOnePress() throws {
        var generator = SeededGenerator(seed: 0xB0B0_CAFE)
        let settle = GestureSettings.standard.settleTime
        let lines = SimulatedButtonLines(buttons: [.play, .skip])
        var expected: [RecognizedGesture] = []
        var burstSizes: [Int] = []
        var time = ms(100)

        func burst(_ button: Button, to level: ButtonLevel, from start: Instant) -> Instant {
            let count = 1 + generator.next(below: 20)
            var times = [start]
            for _ in 1..<count {
                times.append(start + .microseconds(Int64(generator.next(below: 15_001))))
            }
            times.sort()
            lines.bounce(button, to: level, at: times)
            burstSizes.append(count)
            return times[times.count - 1]
        }

        for _ in 0..<1_000 {
            let button: Button = generator.next(below: 2) == 0 ? .play : .skip
            let pressed = burst(button, to: .pressed, from: time)
            let length = Duration.microseconds(Int64(30_000 + generator.next(below: 970_001)))
            let released = burst(button, to: .released, from: pressed + length)
            let press: Gesture = button == .play ? .playPause : .skip
            expected.append(RecognizedGesture(press, button: button, time: released + settle))
            time = released + .microseconds(Int64(30_000 + generator.next(below: 1_970_001)))
        }

        var input = ButtonInput(settings: .standard, initialLevels: [.play: .released, .skip: .released], now: .zero)
        var changes: [SettledLevelChange] = []
        let recognized = runEventLoop(&input, edges: try happenedEdges(lines), until: time, levelChanges: &changes) {
            .microseconds(Int64(generator.next(below: 40_000)))
        }
        #expect(recognized.count == 1_000)
        #expect(recognized == expected)
        #expect(changes.count == 2_000)
        #expect(changes.map(\.edgeCount) == burstSizes)
        #expect(changes.allSatisfy { $0.bounceDuration <= .milliseconds(15) && $0.time == $0.lastEdge + settle })
        #expect(input.rejectedBurstCount(of: .play) == 0 && input.rejectedBurstCount(of: .skip) == 0)
        #expect(input.clampedEdgeCount == 0)
    }

    @Test func aBurstSettlesOnceOnTheLevelAfterItsLastEdge() {
        var debouncer = Debouncer(button: .play, level: .released, settleTime: .milliseconds(20))
        #expect(debouncer.nextDeadline == nil)
        #expect(debouncer.record(.pressed, at: ms(10)) == nil)
        #expect(debouncer.record(.released, at: ms(11)) == nil)
        #expect(debouncer.record(.pressed, at: ms(14)) == nil)
        #expect(debouncer.nextDeadline == ms(34))
        #expect(debouncer.advance(to: ms(33)) == nil)
        #expect(debouncer.settledLevel == .released)
        let change = debouncer.advance(to: ms(500))
        #expect(change == SettledLevelChange(
            button: .play, level: .pressed, time: ms(34), burstStart: ms(10), lastEdge: ms(14), edgeCount: 3))
        #expect(change?.bounceDuration == .milliseconds(4))
        #expect(change?.description == "PLAY pressed at 34ms (3 edges over 4ms)")
        #expect(debouncer.settledLevel == .pressed)
        #expect(debouncer.nextDeadline == nil)
        #expect(debouncer.advance(to: ms(600)) == nil)
    }

    @Test func aBurstEndingOnTheSameLevelIsRejected() {
        var debouncer = Debouncer(button: .skip, level: .released, settleTime: .milliseconds(20))
        _ = debouncer.record(.pressed, at: ms(0))
        _ = debouncer.record(.released, at: ms(19))  // down for less than the settle time
        #expect(debouncer.advance(to: ms(100)) == nil)
        #expect(debouncer.rejectedBurstCount == 1)
        #expect(debouncer.settledLevel == .released)
    }

    @Test func aLineQuietForExactlyTheSettleTimeIsSampledBeforeTheNextEdge() {
        var debouncer = Debouncer(button: .play, level: .released, settleTime: .milliseconds(20))
        _ = debouncer.record(.pressed, at: ms(0))
        let change = debouncer.record(.released, at: ms(20))
        #expect(change?.level == .pressed)
        #expect(change?.time == ms(20))
        #expect(debouncer.nextDeadline == ms(40))
        #expect(debouncer.advance(to: ms(40))?.level == .released)
    }

    @Test func anEdgeOlderThanTheLatestInstantIsClampedToIt() {
        var debouncer = Debouncer(button: .play, level: .released, settleTime: .milliseconds(20))
        _ = debouncer.advance(to: ms(100))
        _ = debouncer.record(.pressed, at: ms(50))
        #expect(debouncer.nextDeadline == ms(120))
        _ = debouncer.record(.released, at: ms(110))
        _ = debouncer.record(.pressed, at: ms(105))  // out of order: taken as at 110
        #expect(debouncer.nextDeadline == ms(130))
        #expect(debouncer.advance(to: ms(130)) == SettledLevelChange(
            button: .play, level: .pressed, time: ms(130), burstStart: ms(100), lastEdge: ms(110), edgeCount: 3))
    }

    @Test func zeroSettleTimeSamplesAtTheEdge() {
        var debouncer = Debouncer(button: .volumeUp, level: .released, settleTime: .milliseconds(-3))
        #expect(debouncer.settleTime == .zero)
        _ = debouncer.record(.pressed, at: ms(7))
        #expect(debouncer.advance(to: ms(7))?.time == ms(7))
    }
}
