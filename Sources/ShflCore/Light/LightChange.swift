/// One switch of the LED: from `instant` on, it is lit (or dark). A list of these is a LED
/// trace, as `LightSchedule.timeline(from:until:)` computes it and `SimulatedStatusLight`
/// records it, so the two compare directly.
public struct LightChange: Hashable, Sendable, CustomStringConvertible {
    public var instant: Instant
    public var lit: Bool

    public init(at instant: Instant, lit: Bool) {
        self.instant = instant
        self.lit = lit
    }

    /// "on@1000ms" or "off@1100ms".
    public var description: String {
        (lit ? "on@" : "off@") + instant.description
    }

    /// A trace on one line, e.g. "on@0ms off@100ms on@2000ms", for test failure messages and
    /// the demo; "(no changes)" for an empty trace.
    public static func render(_ changes: [LightChange]) -> String {
        guard !changes.isEmpty else { return "(no changes)" }
        var text = ""
        for change in changes {
            if !text.isEmpty { text += " " }
            text += change.description
        }
        return text
    }
}
