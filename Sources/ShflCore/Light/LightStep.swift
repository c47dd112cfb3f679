/// One step of a `LightPattern`: the LED lit or dark for a while.
public struct LightStep: Hashable, Sendable, CustomStringConvertible {
    /// `true` while the LED is lit during this step.
    public var lit: Bool
    /// How long the step lasts. Steps that are not longer than zero are dropped by
    /// `LightPattern`.
    public var duration: Duration

    public init(lit: Bool, duration: Duration) {
        self.lit = lit
        self.duration = duration
    }

    /// The LED lit for `milliseconds`.
    public static func on(_ milliseconds: Int64) -> LightStep {
        LightStep(lit: true, duration: .milliseconds(milliseconds))
    }

    /// The LED dark for `milliseconds`.
    public static func off(_ milliseconds: Int64) -> LightStep {
        LightStep(lit: false, duration: .milliseconds(milliseconds))
    }

    /// "on 100ms" or "off 1900ms".
    public var description: String {
        (lit ? "on " : "off ") + duration.millisecondsDescription
    }
}
