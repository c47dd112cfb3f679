/// The connector a board's GPIO lines come out on, for naming lines to people and for
/// checking a pin map's header pin numbers.
public enum BoardHeader: Hashable, Sendable, CustomStringConvertible {
    /// The 40-pin header of every Raspberry Pi since the B+ (Zero 2 W, 3, 4, 5): lines are BCM
    /// GPIO numbers, and each usable one comes out on one fixed header pin.
    case raspberryPi40
    /// No header for people (an emulated board): lines are only chip line numbers.
    case none

    /// The value of the `header` key: "raspberry-pi-40" or "none".
    public var description: String {
        switch self {
        case .raspberryPi40: "raspberry-pi-40"
        case .none: "none"
        }
    }

    public init?(configValue: String) {
        switch configValue {
        case "raspberry-pi-40": self = .raspberryPi40
        case "none": self = .none
        default: return nil
        }
    }

    /// The pin a line comes out on, if this header has one for it.
    public func pin(ofLine line: Int) -> Int? {
        switch self {
        case .raspberryPi40: RaspberryPiHeader.pin(ofGPIO: line)
        case .none: nil
        }
    }

    /// How people name a line: "GPIO17" on a Raspberry Pi (BCM numbering), "line 3" otherwise.
    public func lineName(_ line: Int) -> String {
        switch self {
        case .raspberryPi40: "GPIO" + String(line)
        case .none: "line " + String(line)
        }
    }
}
