import ShflCore
import ShflSimulated
import Testing

/// The `ButtonLines` contract, checked through the port alone so that every adapter can run it
/// (`SimulatedButtonLines` here; `GPIODButtonLines` against a gpio-sim chip later).
///
/// Preconditions: every wired line is released and no edge is pending. `drive` must make the
/// line of a wired button go to a level the way a finger would, cleanly (no bounce), and let a
/// little time pass, so that the edge is pending when it returns.
public func checkButtonLinesContract(
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

/// Whether each button's edges are in time order.
func isTimeOrderedPerButton(_ edges: [ButtonEdge]) -> Bool {
    var last: [Button: Instant] = [:]
    for edge in edges {
        if let previous = last[edge.button], edge.time < previous { return false }
        last[edge.button] = edge.time
    }
    return true
}
