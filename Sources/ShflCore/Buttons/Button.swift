/// The buttons a player can have. PLAY and SKIP always; the volume pair is optional wiring.
public enum Button: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case play
    case skip
    case volumeUp
    case volumeDown

    public var description: String {
        switch self {
        case .play: "PLAY"
        case .skip: "SKIP"
        case .volumeUp: "VOL+"
        case .volumeDown: "VOL-"
        }
    }

    /// The wiring of a set of lines: `buttons` without duplicates (first order kept), each at
    /// its level in `levels`, or released when not given. Shared by the simulated lines.
    public static func wiring(_ buttons: [Button], levels: [Button: ButtonLevel]) -> (buttons: [Button], levels: [Button: ButtonLevel]) {
        var wired: [Button] = []
        var initial: [Button: ButtonLevel] = [:]
        for button in buttons where !wired.contains(button) {
            wired.append(button)
            initial[button] = levels[button] ?? .released
        }
        return (wired, initial)
    }

    /// Parses "PLAY", "skip", "vol+", "VOL-" (case-insensitive), as the control socket and
    /// config files name buttons.
    public init?(name: String) {
        var lowered = ""
        for scalar in name.unicodeScalars {
            let value = scalar.value
            if value >= 0x41 && value <= 0x5A, let lower = Unicode.Scalar(value + 32) {
                lowered.unicodeScalars.append(lower)
            } else {
                lowered.unicodeScalars.append(scalar)
            }
        }
        switch lowered {
        case "play": self = .play
        case "skip": self = .skip
        case "vol+", "volume-up", "volup": self = .volumeUp
        case "vol-", "volume-down", "voldown": self = .volumeDown
        default: return nil
        }
    }
}

/// The logical state of a button line (active-low wiring is the adapter's business).
public enum ButtonLevel: Hashable, Sendable, CustomStringConvertible {
    case pressed
    case released

    public var description: String {
        switch self {
        case .pressed: "pressed"
        case .released: "released"
        }
    }
}

/// One raw edge as the kernel reported it: the level the line went to, and when.
/// Edges bounce; the core's `Debouncer` turns them into settled levels.
public struct ButtonEdge: Hashable, Sendable, CustomStringConvertible {
    public var button: Button
    public var level: ButtonLevel
    public var time: Instant

    public init(button: Button, level: ButtonLevel, time: Instant) {
        self.button = button
        self.level = level
        self.time = time
    }

    public var description: String {
        button.description + " " + level.description + " at " + time.description
    }
}
