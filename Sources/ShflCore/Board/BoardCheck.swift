/// The bring-up test of real wiring behind `shfl board-check` (SPEC §9), as a pure state
/// machine on settled button levels and time: the LED blinks three times, then each button is
/// asked for in turn and must be pressed and released within `timeout`. Each press and release
/// is reported with its contact bounce (edge count and duration, from `SettledLevelChange`),
/// so a builder sees both that the wiring works and how clean the switch is.
///
/// Driving it: `begin(levels:)` once, then `handle(_:now:)` with the settled level changes
/// from `ButtonInput` after every wake-up, and wake up at `nextDeadline` (the end of the blinks,
/// or the current button's timeout). Show `light` on the LED after each call. Results depend
/// only on the changes' instants and on `now`, never on when the calls happen.
///
/// Rules: a press counts only for the button being asked for; a press of another button is
/// reported as `.unexpected` (crossed wires show up this way) and so is any press during the
/// blinks. A button released without a counted press (it was down when asked) is unexpected
/// too. A button pressed but not released in time fails as `.notReleased`.
public struct BoardCheck: Sendable {
    /// A button that did not pass.
    public enum Failure: Hashable, Sendable, CustomStringConvertible {
        case notPressed(Button)
        case notReleased(Button)

        public var button: Button {
            switch self {
            case .notPressed(let button), .notReleased(let button): button
            }
        }

        /// "PLAY not pressed" or "PLAY not released".
        public var description: String {
            switch self {
            case .notPressed(let button): button.description + " not pressed"
            case .notReleased(let button): button.description + " not released"
            }
        }
    }

    /// The buttons to ask for, in order.
    public let buttons: [Button]
    /// How long each button is waited for, from the moment it is asked for.
    public let timeout: Duration
    /// What the LED shows: dark, with the blinks at the start and a flicker for every counted
    /// press.
    public private(set) var light: LightSchedule
    /// The buttons that failed so far.
    public private(set) var failures: [Failure] = []

    private var phase: Phase

    private enum Phase: Sendable {
        case blinking(until: Instant)
        /// Waiting for `buttons[index]` since `since`; `press` is its counted press, if any.
        case asking(index: Int, since: Instant, press: SettledLevelChange?)
        case finished
    }

    /// How many times the LED blinks at the start.
    public static let blinkCount = 3

    /// The start-up blinks: on 300 ms, off 300 ms, three times, after 300 ms dark.
    public static var blinks: LightPattern {
        var steps: [LightStep] = [.off(300)]
        for _ in 0..<blinkCount {
            steps.append(.on(300))
            steps.append(.off(300))
        }
        return LightPattern("three blinks", repeats: false, steps: steps)
    }

    /// A check of `buttons` (duplicates dropped) starting at `start`.
    public init(buttons: [Button], timeout: Duration, start: Instant) {
        var unique: [Button] = []
        for button in buttons where !unique.contains(button) { unique.append(button) }
        self.buttons = unique
        self.timeout = timeout > .zero ? timeout : .zero
        var light = LightSchedule(showing: .steady("dark", lit: false), from: start)
        light.announce(BoardCheck.blinks, at: start)
        self.light = light
        self.phase = .blinking(until: start + BoardCheck.blinks.duration)
    }

    /// The first events: the blinks, and a warning for every button already down (`levels` as
    /// sampled at start-up).
    public func begin(levels: [Button: ButtonLevel]) -> [BoardCheckEvent] {
        var events: [BoardCheckEvent] = []
        if case .blinking(let until) = phase {
            events.append(.blinking(count: BoardCheck.blinkCount, until: until))
        }
        for button in buttons where levels[button] == .pressed {
            events.append(.downAtStart(button))
        }
        return events
    }

    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// The button being asked for, if any.
    public var current: Button? {
        if case .asking(let index, _, _) = phase { return buttons[index] }
        return nil
    }

    /// When something happens without a button: the blinks end, or the current button times out.
    public var nextDeadline: Instant? {
        switch phase {
        case .blinking(let until): until
        case .asking(_, let since, _): since + timeout
        case .finished: nil
        }
    }

    /// Follows `changes` (in time order, none later than `now`) and the passing of time up to
    /// `now`; returns what happened, in order.
    public mutating func handle(_ changes: [SettledLevelChange], now: Instant) -> [BoardCheckEvent] {
        var events: [BoardCheckEvent] = []
        for change in changes {
            passTime(to: change.time, inclusive: false, events: &events)
            follow(change, events: &events)
        }
        passTime(to: now, inclusive: true, events: &events)
        return events
    }

    /// Moves through every deadline before `time` (at or before it with `inclusive`).
    private mutating func passTime(to time: Instant, inclusive: Bool, events: inout [BoardCheckEvent]) {
        while let deadline = nextDeadline, deadline < time || (inclusive && deadline == time) {
            switch phase {
            case .blinking:
                ask(0, at: deadline, events: &events)
            case .asking(let index, _, let press):
                let failure: Failure = press == nil ? .notPressed(buttons[index]) : .notReleased(buttons[index])
                failures.append(failure)
                events.append(.timedOut(failure))
                ask(index + 1, at: deadline, events: &events)
            case .finished:
                return
            }
        }
    }

    private mutating func ask(_ index: Int, at time: Instant, events: inout [BoardCheckEvent]) {
        guard index < buttons.count else {
            phase = .finished
            events.append(.finished(failures: failures))
            return
        }
        phase = .asking(index: index, since: time, press: nil)
        events.append(.asking(buttons[index], within: timeout))
    }

    private mutating func follow(_ change: SettledLevelChange, events: inout [BoardCheckEvent]) {
        guard case .asking(let index, let since, let press) = phase, change.button == buttons[index] else {
            if change.level == .pressed {
                events.append(.unexpected(change, expected: current))
            }
            return
        }
        switch (change.level, press) {
        case (.pressed, _):
            light.acknowledge(at: change.time)
            phase = .asking(index: index, since: since, press: change)
            events.append(.pressed(change))
        case (.released, let press?):
            events.append(.released(change, heldFor: change.lastEdge - press.lastEdge))
            ask(index + 1, at: change.time, events: &events)
        case (.released, nil):
            events.append(.unexpected(change, expected: current))
        }
    }
}
