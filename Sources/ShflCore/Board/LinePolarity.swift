/// Which level of an output line lights the part on it.
public enum LinePolarity: Hashable, Sendable, CustomStringConvertible {
    /// High lights it: LED from the GPIO pin through its resistor to ground (the default wiring).
    case activeHigh
    /// Low lights it: LED from 3V3 through its resistor into the GPIO pin.
    case activeLow

    /// The value of the `active` key: "high" or "low".
    public var description: String {
        switch self {
        case .activeHigh: "high"
        case .activeLow: "low"
        }
    }

    public init?(configValue: String) {
        switch configValue {
        case "high": self = .activeHigh
        case "low": self = .activeLow
        default: return nil
        }
    }

    /// The physical line value (1 high, 0 low) that shows `lit`.
    public func lineValue(lit: Bool) -> Int32 {
        (lit == (self == .activeHigh)) ? 1 : 0
    }
}
