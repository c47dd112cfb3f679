import ShflCore

/// The `ButtonLines` port in memory, for tests and `shfl demo`: a script (or the keyboard)
/// queues edges, the event loop drains them with `readEdges(into:)`.
///
/// - Edges are queued with `press(_:at:)`, `release(_:at:)`, `queue(_:)` or as a contact
///   bounce with `bounce(_:to:at:)`. Edges of one button must be queued in time order, as the
///   kernel reports them; edges of buttons that are not wired are dropped (no line reports them).
/// - Without a clock, a queued edge has happened: it is pending at once. With a clock, an edge
///   becomes pending once `clock.now` reaches its time (and the edges queued before it for the
///   same button are pending), so a whole script can be queued up front and time moved with a
///   `ManualClock`.
/// - `level(of:)` is the level after the last pending-or-read edge of the line (or its initial
///   level).
/// - `pollDescriptor` is -1: nothing to poll; these lines are for code that runs on manual
///   time. An event loop that `poll()`s uses `SocketPairButtonLines` (ShflSystem), the same
///   port fed through a file descriptor (this module stays free of system calls).
/// - Setting `failure` makes every call throw it, to exercise error paths.
public final class SimulatedButtonLines: ButtonLines {
    public let buttons: [Button]
    /// When set, `level(of:)` and `readEdges(into:)` throw this.
    public var failure: DeviceError?

    private let clock: (any MonotonicClock)?
    /// Level after the last edge handed out by `readEdges(into:)`, per button.
    private var readLevels: [Button: ButtonLevel]
    /// Queued edges not handed out yet, in queue order.
    private var queued: [ButtonEdge] = []

    /// Lines for `buttons` (duplicates dropped), at `levels` (released when not given).
    public init(
        buttons: [Button] = [.play, .skip], levels: [Button: ButtonLevel] = [:],
        clock: (any MonotonicClock)? = nil
    ) {
        (self.buttons, self.readLevels) = Button.wiring(buttons, levels: levels)
        self.clock = clock
    }

    /// -1: nothing to poll (see the type's documentation).
    public var pollDescriptor: Int32 { -1 }

    /// Edges queued but not read yet, pending or still in the future.
    public var queuedEdgeCount: Int { queued.count }

    /// True when `readEdges(into:)` would return at least one edge.
    public var hasPendingEdges: Bool {
        queued.indices.contains { isPending(at: $0) }
    }

    public func level(of button: Button) throws(DeviceError) -> ButtonLevel {
        if let failure { throw failure }
        guard let level = readLevels[button] else {
            throw DeviceError("simulated button lines: " + button.description + " is not wired")
        }
        var current = level
        for index in queued.indices where queued[index].button == button && isPending(at: index) {
            current = queued[index].level
        }
        return current
    }

    public func readEdges(into edges: inout [ButtonEdge]) throws(DeviceError) {
        if let failure { throw failure }
        var kept: [ButtonEdge] = []
        for index in queued.indices {
            let edge = queued[index]
            if isPending(at: index) {
                edges.append(edge)
                readLevels[edge.button] = edge.level
            } else {
                kept.append(edge)
            }
        }
        queued = kept
    }

    /// Queues one edge (dropped if its button is not wired).
    public func queue(_ edge: ButtonEdge) {
        guard readLevels[edge.button] != nil else { return }
        queued.append(edge)
    }

    /// Queues a clean press (one edge to `.pressed`) of `button` at `time`.
    public func press(_ button: Button, at time: Instant) {
        queue(ButtonEdge(button: button, level: .pressed, time: time))
    }

    /// Queues a clean release (one edge to `.released`) of `button` at `time`.
    public func release(_ button: Button, at time: Instant) {
        queue(ButtonEdge(button: button, level: .released, time: time))
    }

    /// Queues a contact bounce: one edge at each of `times` (in order), alternating so that
    /// the last one goes to `level`. An empty list queues nothing.
    public func bounce(_ button: Button, to level: ButtonLevel, at times: [Instant]) {
        let other: ButtonLevel = level == .pressed ? .released : .pressed
        for (offset, time) in times.enumerated() {
            let fromEnd = times.count - 1 - offset
            queue(ButtonEdge(button: button, level: fromEnd % 2 == 0 ? level : other, time: time))
        }
    }

    /// Queues a contact bounce of `count` edges (at least one), `spacing` apart from `start`,
    /// alternating so that the last one goes to `level`: the line is at `level` from
    /// `start + spacing * (count - 1)` on.
    public func bounce(
        _ button: Button, to level: ButtonLevel, at start: Instant,
        edges count: Int = 5, spacing: Duration = .milliseconds(1)
    ) {
        var times: [Instant] = []
        var time = start
        for _ in 0..<max(count, 1) {
            times.append(time)
            time = time + spacing
        }
        bounce(button, to: level, at: times)
    }

    /// Whether the queued edge at `index` is pending: its time has come (always, without a
    /// clock) and no earlier-queued edge of the same button is still waiting.
    private func isPending(at index: Int) -> Bool {
        guard let clock else { return true }
        let now = clock.now
        let button = queued[index].button
        for earlier in 0...index where queued[earlier].button == button && queued[earlier].time > now {
            return false
        }
        return true
    }
}
