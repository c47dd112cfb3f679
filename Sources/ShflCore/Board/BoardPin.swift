/// Where one part is wired: a line of the board's GPIO chip, and the header pin it comes out on
/// (for people; nil on a board without a header).
public struct BoardPin: Hashable, Sendable {
    /// The line's offset on the chip (on a Raspberry Pi, its BCM GPIO number).
    public var line: Int
    public var headerPin: Int?

    public init(line: Int, headerPin: Int? = nil) {
        self.line = line
        self.headerPin = headerPin
    }
}
