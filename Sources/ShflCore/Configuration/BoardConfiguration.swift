/// The [board] section: which pin map describes the wiring, and the LED's polarity.
public struct BoardConfiguration: Hashable, Sendable {
    /// The pin map's name ("pi-4", looked up as NAME.ini in the board directories) or a pin
    /// map file's path; nil (`auto`, the default) recognises the board from the device tree.
    public var pinMap: String?
    /// Overrides the pin map's LED polarity; nil (`auto`, the default) keeps the pin map's.
    public var ledPolarity: LinePolarity?

    public init(pinMap: String? = nil, ledPolarity: LinePolarity? = nil) {
        self.pinMap = pinMap
        self.ledPolarity = ledPolarity
    }
}
