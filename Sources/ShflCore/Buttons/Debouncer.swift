/// Debounces one button line by "settle, then sample" (SPEC §5).
///
/// Every edge (re)starts a settle timer; once the line has seen no edge for `settleTime`, it is
/// sampled, and the sampled level is the level after the last edge. A burst of bounce edges
/// therefore yields at most one level change, and a press is never lost as long as the line
/// stays down for `settleTime` after its last bounce: with 20 ms settle, a 30 ms press with
/// 5 ms of bounce at each end counts. A burst that ends on the level the line already had (a
/// glitch, or a press shorter than the settle time) changes nothing and is counted in
/// `rejectedBurstCount`.
///
/// Time comes only from the edges' timestamps and the instants passed to `advance(to:)`.
/// Ordering rules, which make the result depend on those times alone:
/// - At equal instants, a due sample happens before an edge: a line quiet for exactly
///   `settleTime` is sampled.
/// - An edge older than the latest instant this debouncer has seen (an out-of-order edge, or
///   one older than an `advance(to:)` already done) is taken as happening at that instant.
public struct Debouncer: Sendable {
    /// The line this debouncer watches; copied into every `SettledLevelChange`.
    public let button: Button
    /// How long a line must be quiet before it is sampled (clamped to
    /// `0...ButtonBinding.maximumDuration`).
    public let settleTime: Duration
    /// The last sampled level (initially the level given at creation).
    public private(set) var settledLevel: ButtonLevel
    /// Bursts that settled on the level the line already had, so changed nothing.
    public private(set) var rejectedBurstCount = 0

    /// The edges since the last sample.
    private var burst: Burst?
    /// The latest instant seen (edge or advance); earlier edges are clamped to it.
    private var latest: Instant?

    private struct Burst: Sendable {
        var level: ButtonLevel
        var start: Instant
        var lastEdge: Instant
        var edgeCount: Int
    }

    /// A debouncer for a line whose level is `level` (sampled once at start-up).
    public init(button: Button, level: ButtonLevel, settleTime: Duration) {
        self.button = button
        self.settledLevel = level
        self.settleTime = ButtonBinding.clamp(settleTime)
    }

    /// When the line will be sampled if no further edge comes; nil while it is settled.
    public var nextDeadline: Instant? {
        burst.map { $0.lastEdge.addingSaturating(settleTime) }
    }

    /// Samples the line if its settle time has ended at or before `now`. Returns the level
    /// change, if the line settled on a new level; its `time` is the sampling instant, which
    /// may be earlier than `now`.
    public mutating func advance(to now: Instant) -> SettledLevelChange? {
        if latest.map({ now > $0 }) ?? true { latest = now }
        guard let burst, let deadline = nextDeadline, deadline <= now else { return nil }
        self.burst = nil
        guard burst.level != settledLevel else {
            rejectedBurstCount += 1
            return nil
        }
        settledLevel = burst.level
        return SettledLevelChange(
            button: button, level: burst.level, time: deadline,
            burstStart: burst.start, lastEdge: burst.lastEdge, edgeCount: burst.edgeCount)
    }

    /// Records that the line went to `level` at `time`. A sample that was due at or before
    /// `time` happens first, and its change (if any) is returned.
    public mutating func record(_ level: ButtonLevel, at time: Instant) -> SettledLevelChange? {
        let change = advance(to: time)
        let edgeTime = latest ?? time  // `advance` made `latest` at least `time`
        if var current = burst {
            current.level = level
            current.lastEdge = edgeTime
            current.edgeCount += 1
            burst = current
        } else {
            burst = Burst(level: level, start: edgeTime, lastEdge: edgeTime, edgeCount: 1)
        }
        return change
    }
}
