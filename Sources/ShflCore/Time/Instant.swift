/// A point on a monotonic timeline (in the real adapter, `CLOCK_MONOTONIC`), in nanoseconds
/// from an arbitrary origin. Only differences between instants of one clock mean anything.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public static let zero = Instant(nanoseconds: 0)

    public static func milliseconds(_ value: Int64) -> Instant {
        Instant(nanoseconds: value * 1_000_000)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    public static func - (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    /// Milliseconds with three decimals, e.g. "1234.567ms".
    public var description: String {
        Duration.nanoseconds(nanoseconds).millisecondsDescription
    }
}

extension Duration {
    /// The duration in whole nanoseconds (truncated; durations here are far below 292 years).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in whole milliseconds (truncated toward zero).
    public var milliseconds: Int64 {
        nanoseconds / 1_000_000
    }

    /// "20ms", or "20.5ms" when not whole; usable in Embedded Swift, which cannot print `Duration`.
    public var millisecondsDescription: String {
        let ns = nanoseconds
        let sign = ns < 0 ? "-" : ""
        let magnitude = ns < 0 ? -ns : ns
        let whole = magnitude / 1_000_000
        var fraction = magnitude % 1_000_000
        if fraction == 0 { return sign + String(whole) + "ms" }
        var digits = String(fraction + 1_000_000)  // keeps leading zeros
        digits.removeFirst()
        while fraction % 10 == 0 {
            fraction /= 10
            digits.removeLast()
        }
        return sign + String(whole) + "." + digits + "ms"
    }
}
