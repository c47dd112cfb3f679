import ShflCore
import ShflSimulated
import Testing

/// The `ButtonLines` contract, checked through the port alone so that every adapter can run it
/// (`SimulatedButtonLines` here; `GPIODButtonLines` against a gpio-sim chip later).
///
/// Preconditions: every wired line is released and no edge is pending. `drive` must make the
/// line of a wired button go to a level the way a finger would, cleanly (no bounce), and let a
/// little time pass, so that the edge is pending when it returns.
func checkButtonLinesContract(
    _ lines: some ButtonLines, drive: (Button, ButtonLevel) -> Void
) throws(DeviceError) {
    // `buttons`: non-empty, no duplicates, stable.
    let buttons = lines.buttons
    #expect(!buttons.isEmpty)
    #expect(Set(buttons).count == buttons.count)
    let descriptor = lines.pollDescriptor
    #expect(descriptor >= -1)

    // Idle: levels are released, reading returns nothing and appends rather than replaces.
    for button in buttons {
        #expect(try lines.level(of: button) == .released)
    }
    let sentinel = ButtonEdge(button: buttons[0], level: .pressed, time: .zero)
    var edges = [sentinel]
    try lines.readEdges(into: &edges)
    #expect(edges == [sentinel])

    // A press and a release of each line: edges for that button only, in time order, ending on
    // the driven level; `level(of:)` follows; a second read returns nothing.
    for button in buttons {
        for level in [ButtonLevel.pressed, .released] {
            drive(button, level)
            edges = []
            try lines.readEdges(into: &edges)
            #expect(!edges.isEmpty, "no edge for \(button) \(level)")
            #expect(edges.allSatisfy { $0.button == button })
            #expect(edges.last?.level == level)
            #expect(isTimeOrderedPerButton(edges))
            #expect(try lines.level(of: button) == level)
            edges = []
            try lines.readEdges(into: &edges)
            #expect(edges.isEmpty)
        }
    }

    // Two buttons down at once (when there are two): nothing lost, each button's edges in
    // time order, each ending released.
    if buttons.count > 1 {
        let (first, second) = (buttons[0], buttons[1])
        drive(first, .pressed)
        drive(second, .pressed)
        drive(first, .released)
        drive(second, .released)
        edges = []
        try lines.readEdges(into: &edges)
        #expect(edges.filter { $0.button == first }.last?.level == .released)
        #expect(edges.filter { $0.button == second }.last?.level == .released)
        #expect(edges.filter { $0.button == first }.count >= 2)
        #expect(edges.filter { $0.button == second }.count >= 2)
        #expect(isTimeOrderedPerButton(edges))
        for button in buttons {
            #expect(try lines.level(of: button) == .released)
        }
    }

    // Stable identity.
    #expect(lines.buttons == buttons)
    #expect(lines.pollDescriptor == descriptor)
}

private func isTimeOrderedPerButton(_ edges: [ButtonEdge]) -> Bool {
    var last: [Button: Instant] = [:]
    for edge in edges {
        if let previous = last[edge.button], edge.time < previous { return false }
        last[edge.button] = edge.time
    }
    return true
}

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

    @Test func pollDescriptorIsMinusOneUntilBackedByAPipe() {
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
