/// Turns the settled levels of one button into gestures, following its `ButtonBinding`.
/// Internal to `ButtonInput`, which feeds it settled changes and due deadlines in time order.
///
/// A button that is already down when the tracker starts fires nothing until it has been
/// released and pressed again (a stuck line, or a finger on PLAY during boot).
struct GestureTracker: Sendable {
    let button: Button
    /// Normalized: durations clamped, holds sorted by threshold.
    let binding: ButtonBinding
    private var state: State

    private enum State: Sendable {
        /// Down since start-up: ignored until released.
        case waitingForRelease
        case released
        /// `.pressOrHold` button down since `since`; `holdsFired` holds have fired so far.
        case held(since: Instant, holdsFired: Int)
        /// `.press` button down; it fires again at `nextRepeat` (nil: no repeat).
        case repeating(nextRepeat: Instant?)
    }

    init(button: Button, binding: ButtonBinding, initialLevel: ButtonLevel) {
        self.button = button
        self.binding = binding.normalized
        self.state = initialLevel == .pressed ? .waitingForRelease : .released
    }

    /// True while the button has been down since start-up and is being ignored.
    var isWaitingForRelease: Bool {
        if case .waitingForRelease = state { return true }
        return false
    }

    /// The next hold threshold or repeat, if the button is down and one remains.
    var nextDeadline: Instant? {
        switch state {
        case .waitingForRelease, .released:
            return nil
        case .held(let since, let holdsFired):
            guard case .pressOrHold(_, let holds) = binding, holdsFired < holds.count else { return nil }
            return since.addingSaturating(holds[holdsFired].after)
        case .repeating(let nextRepeat):
            return nextRepeat
        }
    }

    /// Fires the deadline due at `time` (the caller passes `nextDeadline`).
    mutating func fireDeadline(at time: Instant) -> RecognizedGesture? {
        switch (state, binding) {
        case (.held(let since, let holdsFired), .pressOrHold(_, let holds)):
            guard holdsFired < holds.count else { return nil }
            state = .held(since: since, holdsFired: holdsFired + 1)
            return RecognizedGesture(holds[holdsFired].gesture, button: button, time: time)
        case (.repeating(.some), .press(let gesture, let timing)):
            let following = timing.map { time.addingSaturating($0.interval) }
            // At the very end of the timeline the next repeat cannot be later: stop repeating.
            state = .repeating(nextRepeat: following.flatMap { $0 > time ? $0 : nil })
            return RecognizedGesture(gesture, button: button, time: time)
        default:
            return nil
        }
    }

    /// Follows a settled level change; returns the gesture it completes, if any.
    mutating func settled(_ level: ButtonLevel, at time: Instant) -> RecognizedGesture? {
        switch (level, state) {
        case (.pressed, .released):
            switch binding {
            case .press(let gesture, let timing):
                state = .repeating(nextRepeat: timing.map { time.addingSaturating($0.delay) })
                return RecognizedGesture(gesture, button: button, time: time)
            case .pressOrHold:
                state = .held(since: time, holdsFired: 0)
                return nil
            }
        case (.pressed, _):
            return nil  // already down; settled changes alternate, so this does not happen
        case (.released, .held(_, let holdsFired)):
            state = .released
            guard holdsFired == 0, case .pressOrHold(.some(let press), _) = binding else { return nil }
            return RecognizedGesture(press, button: button, time: time)
        case (.released, _):
            state = .released
            return nil
        }
    }
}
