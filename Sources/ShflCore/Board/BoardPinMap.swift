/// How a board is wired (SPEC §10): the GPIO chip, found by its label because its number
/// differs between models and kernels, and the line of each button and of the LED. Data, one
/// small INI file per board under board/ (`parse(_:name:file:)` reads it); the default wiring
/// is PLAY GPIO17 (pin 11), SKIP GPIO27 (pin 13), VOL+ GPIO22 (pin 15), VOL- GPIO23 (pin 16),
/// LED GPIO24 (pin 18).
///
/// Buttons are always wired from their line to ground, with the chip's internal pull-up: a
/// pressed button reads low. The LED's polarity is data (`ledPolarity`).
public struct BoardPinMap: Hashable, Sendable, CustomStringConvertible {
    /// The boards whose pin maps ship in board/ (NAME.ini), in the order a board is recognised
    /// by (the first match wins; Pi 3 and Zero 2 W share a chip, so the device tree's model
    /// tells them apart). A test checks that this list and the files agree.
    public static let shippedNames = ["pi-5", "pi-4", "pi-3", "pi-zero-2-w", "virt"]

    /// The board's short name, the file's name without ".ini" ("pi-4").
    public var name: String
    /// What the board is, for people ("Raspberry Pi 4 Model B").
    public var title: String
    /// The start of the device tree's model string (/proc/device-tree/model) on this board,
    /// used to recognise it ("Raspberry Pi 4"); nil if it cannot be recognised that way.
    public var model: String?
    /// The GPIO chip's label, as the kernel reports it ("pinctrl-bcm2711").
    public var chipLabel: String
    public var header: BoardHeader
    /// Where each wired button is; PLAY and SKIP are always there.
    public var buttons: [Button: BoardPin]
    public var led: BoardPin
    public var ledPolarity: LinePolarity

    public init(
        name: String, title: String, model: String? = nil, chipLabel: String, header: BoardHeader,
        buttons: [Button: BoardPin], led: BoardPin, ledPolarity: LinePolarity = .activeHigh
    ) {
        self.name = name
        self.title = title
        self.model = model
        self.chipLabel = chipLabel
        self.header = header
        self.buttons = buttons
        self.led = led
        self.ledPolarity = ledPolarity
    }

    /// The wired buttons, in `Button` order.
    public var wiredButtons: [Button] {
        var wired: [Button] = []
        for button in Button.allCases where buttons[button] != nil { wired.append(button) }
        return wired
    }

    /// Where `part` is wired; nil for a button the board does not wire.
    public func pin(for part: BoardPart) -> BoardPin? {
        switch part {
        case .button(let button): buttons[button]
        case .led: led
        }
    }

    /// Where a part is, for people: "GPIO17 (pin 11)", or "line 3" without a header.
    public func place(of pin: BoardPin) -> String {
        let line = header.lineName(pin.line)
        guard let headerPin = pin.headerPin else { return line }
        return line + " (pin " + String(headerPin) + ")"
    }

    /// "PLAY on GPIO17 (pin 11)", or "VOL+ (not wired)".
    public func placeDescription(of part: BoardPart) -> String {
        guard let pin = pin(for: part) else { return part.description + " (not wired)" }
        return part.description + " on " + place(of: pin)
    }

    /// One line per part, for `shfl board-check` and logs:
    /// "board pi-4 (Raspberry Pi 4 Model B), chip pinctrl-bcm2711: PLAY on GPIO17 (pin 11), ..."
    public var description: String {
        var text = "board " + name + " (" + title + "), chip " + chipLabel + ":"
        var first = true
        for part in BoardPart.allCases where pin(for: part) != nil {
            text += (first ? " " : ", ") + placeDescription(of: part)
            first = false
        }
        if ledPolarity == .activeLow { text += " (active low)" }
        return text
    }
}
