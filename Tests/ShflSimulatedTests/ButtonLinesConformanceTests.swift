import ShflCore
import ShflSimulated
import ShflTestKit
import Testing

@Suite struct ButtonLinesConformanceTests {
    @Test(arguments: [[Button.play, .skip], Button.allCases, [.play]])
    func simulatedLinesMeetTheContract(buttons: [Button]) throws {
        let clock = ManualClock(now: .milliseconds(1_000))
        let lines = SimulatedButtonLines(buttons: buttons, clock: clock)
        try checkButtonLinesContract(lines) { button, level in
            clock.advance(by: .milliseconds(7))
            lines.queue(ButtonEdge(button: button, level: level, time: clock.now))
        }
    }

    @Test func simulatedLinesWithoutClockMeetTheContract() throws {
        var time = Instant.zero
        let lines = SimulatedButtonLines(buttons: [.skip, .volumeDown])
        try checkButtonLinesContract(lines) { button, level in
            time = time + .milliseconds(3)
            if level == .pressed {
                lines.press(button, at: time)
            } else {
                lines.release(button, at: time)
            }
        }
    }

    @Test func pollDescriptorIsMinusOneNothingToPoll() {
        #expect(SimulatedButtonLines().pollDescriptor == -1)
    }

    @Test func initialLevelsAndUnwiredButtons() throws {
        let lines = SimulatedButtonLines(buttons: [.play, .skip, .play], levels: [.play: .pressed])
        #expect(lines.buttons == [.play, .skip])
        #expect(try lines.level(of: .play) == .pressed)
        #expect(try lines.level(of: .skip) == .released)
        #expect(throws: DeviceError.self) { try lines.level(of: .volumeUp) }
        lines.press(.volumeUp, at: .zero)  // no line reports it
        #expect(lines.queuedEdgeCount == 0)
    }

    @Test func bounceAlternatesAndEndsOnTheLevel() throws {
        let lines = SimulatedButtonLines()
        lines.bounce(.play, to: .pressed, at: .milliseconds(10), edges: 4, spacing: .milliseconds(2))
        var edges: [ButtonEdge] = []
        try lines.readEdges(into: &edges)
        #expect(edges.map(\.level) == [.released, .pressed, .released, .pressed])
        #expect(edges.map(\.time) == [10, 12, 14, 16].map { Instant.milliseconds($0) })
        #expect(try lines.level(of: .play) == .pressed)
    }

    @Test func withAClockEdgesArePendingOnlyOnceTheirTimeHasCome() throws {
        let clock = ManualClock()
        let lines = SimulatedButtonLines(clock: clock)
        lines.press(.play, at: .milliseconds(100))
        lines.release(.play, at: .milliseconds(200))
        lines.press(.skip, at: .milliseconds(150))
        var edges: [ButtonEdge] = []
        try lines.readEdges(into: &edges)
        #expect(edges.isEmpty)
        #expect(!lines.hasPendingEdges)
        clock.advance(to: .milliseconds(160))
        #expect(lines.hasPendingEdges)
        #expect(try lines.level(of: .play) == .pressed)
        try lines.readEdges(into: &edges)
        #expect(edges.map(\.time) == [.milliseconds(100), .milliseconds(150)])
        #expect(lines.queuedEdgeCount == 1)
        clock.advance(to: .milliseconds(200))
        edges = []
        try lines.readEdges(into: &edges)
        #expect(edges == [ButtonEdge(button: .play, level: .released, time: .milliseconds(200))])
    }

    @Test func injectedFailureIsThrown() {
        let lines = SimulatedButtonLines()
        lines.failure = DeviceError("simulated: chip gone", code: 19)
        var edges: [ButtonEdge] = []
        #expect(throws: DeviceError("simulated: chip gone", code: 19)) {
            try lines.readEdges(into: &edges)
        }
        #expect(throws: DeviceError.self) { try lines.level(of: .play) }
    }
}
