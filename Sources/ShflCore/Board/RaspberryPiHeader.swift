/// The Raspberry Pi 40-pin GPIO header (every model since the B+, including the Zero 2 W, 3, 4
/// and 5): what each physical pin carries. Pin 1 is the one with the square solder pad; odd
/// pins form the row towards the middle of the board, even pins the row along its edge
/// (board/WIRING.md has a drawing).
public enum RaspberryPiHeader {
    /// What a header pin carries.
    public enum Function: Hashable, Sendable, CustomStringConvertible {
        /// A GPIO line, by its BCM number.
        case gpio(Int)
        case ground
        case power3V3
        case power5V

        /// "GPIO17", "GND", "3V3", "5V".
        public var description: String {
            switch self {
            case .gpio(let line): "GPIO" + String(line)
            case .ground: "GND"
            case .power3V3: "3V3"
            case .power5V: "5V"
            }
        }
    }

    /// Number of pins.
    public static let pinCount = 40

    /// The function of `pin` (1...40), or nil for a pin number the header does not have.
    public static func function(ofPin pin: Int) -> Function? {
        guard pin >= 1, pin <= pinCount else { return nil }
        switch pin {
        case 1, 17: return .power3V3
        case 2, 4: return .power5V
        case 6, 9, 14, 20, 25, 30, 34, 39: return .ground
        default: break
        }
        // BCM numbers of the GPIO pins, in pin order (the power and ground pins above skipped).
        let gpioPins: [(pin: Int, gpio: Int)] = [
            (3, 2), (5, 3), (7, 4), (8, 14), (10, 15), (11, 17), (12, 18), (13, 27), (15, 22),
            (16, 23), (18, 24), (19, 10), (21, 9), (22, 25), (23, 11), (24, 8), (26, 7), (27, 0),
            (28, 1), (29, 5), (31, 6), (32, 12), (33, 13), (35, 19), (36, 16), (37, 26), (38, 20),
            (40, 21),
        ]
        for entry in gpioPins where entry.pin == pin {
            return .gpio(entry.gpio)
        }
        return nil
    }

    /// The header pin that carries BCM line `gpio` (0...27), or nil if the header has none.
    public static func pin(ofGPIO gpio: Int) -> Int? {
        for pin in 1...pinCount where function(ofPin: pin) == .gpio(gpio) {
            return pin
        }
        return nil
    }
}
