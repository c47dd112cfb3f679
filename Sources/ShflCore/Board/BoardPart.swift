/// A part wired to a board's GPIO header: one of the buttons, or the status LED.
public enum BoardPart: Hashable, Sendable, CustomStringConvertible {
    case button(Button)
    case led

    /// Every part, buttons in `Button` order, then the LED.
    public static var allCases: [BoardPart] {
        var parts: [BoardPart] = []
        for button in Button.allCases { parts.append(.button(button)) }
        parts.append(.led)
        return parts
    }

    /// "PLAY", "VOL+", "LED".
    public var description: String {
        switch self {
        case .button(let button): button.description
        case .led: "LED"
        }
    }

    /// The INI section that places the part: "play", "skip", "volume-up", "volume-down", "led".
    public var sectionName: String {
        switch self {
        case .button(.play): "play"
        case .button(.skip): "skip"
        case .button(.volumeUp): "volume-up"
        case .button(.volumeDown): "volume-down"
        case .led: "led"
        }
    }
}
