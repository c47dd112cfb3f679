/// What `BoardCheck` reports, one line each for the builder at the bench.
public enum BoardCheckEvent: Hashable, Sendable {
    /// The LED blinks `count` times, until `until`.
    case blinking(count: Int, until: Instant)
    /// A button reads pressed before the check starts: stuck, or its line tied to ground.
    case downAtStart(Button)
    /// Waiting for a press and release of the button, for `within` from now.
    case asking(Button, within: Duration)
    /// The button asked for settled pressed.
    case pressed(SettledLevelChange)
    /// The button asked for settled released; it passed.
    case released(SettledLevelChange, heldFor: Duration)
    /// A button settled at a level nobody asked for (`expected`: the button being asked for).
    case unexpected(SettledLevelChange, expected: Button?)
    /// The button asked for was not seen in time.
    case timedOut(BoardCheck.Failure)
    /// Every button had its turn.
    case finished(failures: [BoardCheck.Failure])

    /// The line `shfl board-check` prints, naming places from `pinMap`, e.g.
    /// "PLAY pressed: 3 edges over 1.2ms of contact bounce, accepted 21.2ms after the first"
    /// (times rounded to a tenth of a millisecond).
    public func message(on pinMap: BoardPinMap) -> String {
        switch self {
        case .blinking(let count, _):
            return pinMap.placeDescription(of: .led) + ": blinking " + String(count) + " times now, watch it"
        case .downAtStart(let button):
            return pinMap.placeDescription(of: .button(button))
                + " reads pressed before the check: a stuck button, or its line shorted to GND?"
        case .asking(let button, let within):
            return "press and release " + pinMap.placeDescription(of: .button(button)) + " (within "
                + BoardCheckEvent.seconds(within) + ")"
        case .pressed(let change):
            return change.button.description + " pressed: " + BoardCheckEvent.bounce(change)
        case .released(let change, let held):
            return change.button.description + " released after " + held.roundedMillisecondsDescription + ": "
                + BoardCheckEvent.bounce(change) + "; " + change.button.description + " ok"
        case .unexpected(let change, let expected):
            let what = pinMap.placeDescription(of: .button(change.button)) + " " + change.level.description
            guard let expected else { return what + " before the buttons were asked for" }
            if change.button == expected {
                return what + " (it was down when asked for: press it again)"
            }
            return what + " while waiting for " + expected.description + ": are the two wired the other way round?"
        case .timedOut(.notPressed(let button)):
            return pinMap.placeDescription(of: .button(button))
                + " not pressed in time: check its wire to the GPIO pin and to GND"
        case .timedOut(.notReleased(let button)):
            return pinMap.placeDescription(of: .button(button))
                + " pressed but not released in time: stuck, or shorted to GND?"
        case .finished(let failures):
            guard !failures.isEmpty else { return "board-check: every button works; the LED blinked (did you see it?)" }
            var text = "board-check: FAILED:"
            for (index, failure) in failures.enumerated() {
                text += (index == 0 ? " " : ", ") + pinMap.placeDescription(of: .button(failure.button))
                    + (failure == .notPressed(failure.button) ? " not seen" : " not released")
            }
            return text
        }
    }

    /// "20 s", or "1.5 s".
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        let whole = String(milliseconds / 1_000)
        guard milliseconds % 1_000 != 0 else { return whole + " s" }
        var fraction = String(milliseconds % 1_000 + 1_000)  // keeps leading zeros
        fraction.removeFirst()
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return whole + "." + fraction + " s"
    }

    /// "3 edges over 1.2ms of contact bounce, accepted 21.2ms after the first" or
    /// "1 clean edge, accepted 20ms after it".
    static func bounce(_ change: SettledLevelChange) -> String {
        let accepted = (change.time - change.burstStart).roundedMillisecondsDescription
        if change.edgeCount == 1 { return "1 clean edge, accepted " + accepted + " after it" }
        return String(change.edgeCount) + " edges over " + change.bounceDuration.roundedMillisecondsDescription
            + " of contact bounce, accepted " + accepted + " after the first"
    }
}
