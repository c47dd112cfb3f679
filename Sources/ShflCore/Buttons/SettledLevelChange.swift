/// A debounced level change of one button line, with the bounce burst that led to it.
///
/// `Debouncer` produces one for every burst of edges that settles on a level different from the
/// previous settled one. The burst fields are what a bring-up tool (`shfl board-check`) shows
/// to judge the wiring: how many edges a press makes and for how long the contact bounces.
public struct SettledLevelChange: Hashable, Sendable, CustomStringConvertible {
    public var button: Button
    /// The level the line settled on (the level after the last edge of the burst).
    public var level: ButtonLevel
    /// When the level was accepted: the last edge of the burst plus the settle time.
    public var time: Instant
    /// The first edge of the burst.
    public var burstStart: Instant
    /// The last edge of the burst: when the line really went to `level` for good.
    public var lastEdge: Instant
    /// How many edges the burst had (1 for a clean contact).
    public var edgeCount: Int

    public init(
        button: Button, level: ButtonLevel, time: Instant,
        burstStart: Instant, lastEdge: Instant, edgeCount: Int
    ) {
        self.button = button
        self.level = level
        self.time = time
        self.burstStart = burstStart
        self.lastEdge = lastEdge
        self.edgeCount = edgeCount
    }

    /// How long the contact bounced: first to last edge of the burst.
    public var bounceDuration: Duration {
        lastEdge - burstStart
    }

    /// E.g. "PLAY pressed at 25ms (3 edges over 5ms)".
    public var description: String {
        button.description + " " + level.description + " at " + time.description + " ("
            + String(edgeCount) + (edgeCount == 1 ? " edge" : " edges") + " over "
            + bounceDuration.millisecondsDescription + ")"
    }
}
