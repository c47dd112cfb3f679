/// The buttons as the event loop sees them: raw timestamped edges in, gestures out.
///
/// Each wired button is debounced on its own (`Debouncer`, "settle, then sample") and its
/// settled levels are turned into gestures by its `ButtonBinding` (from `GestureSettings`):
/// PLAY and SKIP fire their press at release and their holds while held, VOL+/VOL- fire at
/// the press and repeat while held. A button that is down at creation fires nothing until it
/// has been released and pressed again.
///
/// Driving it: call `handle(_:now:)` with every edge read from `ButtonLines` (read them before
/// handling a timer expiry, in the same wake-up), and arm a timer for `nextDeadline`; when it
/// expires call `advance(to:)`. Nothing fires between deadlines, so no polling is needed.
///
/// Time and exactness: results depend only on the edges' timestamps, never on when they were
/// delivered. Every deadline up to `now` and every edge is processed in time order, and every
/// gesture carries the instant it was recognised, which may be earlier than `now` (a late
/// wake-up or late edges). Gestures come out sorted by time. Rules for odd input, none of
/// which crashes:
/// - Edges of unwired buttons are ignored and counted in `ignoredEdgeCount`.
/// - An edge older than `processedUntil` (time already processed by an earlier call) or older
///   than the previous edge of its button in the same call is taken as happening at that later
///   instant, and counted in `clampedEdgeCount`. Edges of one button keep their given order.
/// - An edge later than `now` proves the clock has reached it: `now` is taken as the latest
///   edge time. A `now` earlier than `processedUntil` processes nothing new.
/// - At equal instants, holds and repeats come before samples, and samples before edges: a
///   hold of exactly the threshold fires its hold gesture, not a press.
public struct ButtonInput: Sendable {
    /// The settings this input was created with.
    public let settings: GestureSettings
    /// Everything up to and including this instant has been processed.
    public private(set) var processedUntil: Instant
    /// Edges of buttons that are not wired, ignored.
    public private(set) var ignoredEdgeCount = 0
    /// Edges that came with a time earlier than already processed, and were moved later.
    public private(set) var clampedEdgeCount = 0

    /// One per wired button, in `Button` order.
    private var channels: [ButtonChannel]

    /// An input for the buttons in `initialLevels` (the wired ones, with their levels sampled
    /// at start-up, e.g. by `ButtonLines.level(of:)`), starting at `now`.
    public init(settings: GestureSettings, initialLevels: [Button: ButtonLevel], now: Instant) {
        self.settings = settings
        self.processedUntil = now
        var channels: [ButtonChannel] = []
        for button in Button.allCases {
            guard let level = initialLevels[button] else { continue }
            channels.append(ButtonChannel(button: button, level: level, settings: settings))
        }
        self.channels = channels
    }

    /// The wired buttons, in `Button` order.
    public var buttons: [Button] {
        var result: [Button] = []
        for channel in channels { result.append(channel.button) }
        return result
    }

    /// The debounced level of `button`; nil if it is not wired.
    public func settledLevel(of button: Button) -> ButtonLevel? {
        channelIndex(of: button).map { channels[$0].debouncer.settledLevel }
    }

    /// True while `button` has been down since creation and is ignored until released (worth
    /// a log line: a stuck button or a finger on it during boot).
    public func isWaitingForRelease(_ button: Button) -> Bool {
        channelIndex(of: button).map { channels[$0].tracker.isWaitingForRelease } ?? false
    }

    /// Bursts of `button` that settled back on the level it had (glitches, or presses shorter
    /// than the settle time); 0 if it is not wired.
    public func rejectedBurstCount(of button: Button) -> Int {
        channelIndex(of: button).map { channels[$0].debouncer.rejectedBurstCount } ?? 0
    }

    /// The next instant at which something may happen without a new edge: a line settles, a
    /// hold threshold is crossed or a repeat is due. Nil when nothing is pending. Advancing
    /// to any instant before it fires nothing; it is always later than `processedUntil`.
    public var nextDeadline: Instant? {
        var earliest: Instant?
        for channel in channels {
            guard let deadline = channel.nextDeadline else { continue }
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    /// Processes `edges` and everything due up to `now`; returns the gestures recognised,
    /// sorted by time.
    public mutating func handle(_ edges: [ButtonEdge], now: Instant) -> [RecognizedGesture] {
        var levelChanges: [SettledLevelChange] = []
        return handle(edges, now: now, levelChanges: &levelChanges)
    }

    /// As `handle(_:now:)`, and also appends the settled level changes, sorted by time, to
    /// `levelChanges` (for a bring-up tool, or to acknowledge a press on the LED the moment
    /// it settles).
    public mutating func handle(
        _ edges: [ButtonEdge], now: Instant, levelChanges: inout [SettledLevelChange]
    ) -> [RecognizedGesture] {
        var end = now > processedUntil ? now : processedUntil
        var edgesByChannel = [[ButtonEdge]](repeating: [], count: channels.count)
        for edge in edges {
            guard let index = channelIndex(of: edge.button) else {
                ignoredEdgeCount += 1
                continue
            }
            var clamped = edge
            let earliest = edgesByChannel[index].last?.time ?? processedUntil
            if clamped.time < earliest {
                clamped.time = earliest
                clampedEdgeCount += 1
            }
            if clamped.time > end { end = clamped.time }
            edgesByChannel[index].append(clamped)
        }
        processedUntil = end

        var gestures: [RecognizedGesture] = []
        var changes: [SettledLevelChange] = []
        for index in channels.indices {
            channels[index].run(
                edgesByChannel[index], upTo: end, gestures: &gestures, levelChanges: &changes)
        }
        // Each channel's output is in time order; interleave the channels by time, keeping the
        // order within one instant of one button (e.g. two holds with equal thresholds).
        let sortedChanges = ButtonInput.sortedByTime(changes) { ($0.time, $0.button.rawValue) }
        levelChanges.append(contentsOf: sortedChanges)
        return ButtonInput.sortedByTime(gestures) { ($0.time, $0.button.rawValue) }
    }

    /// Processes everything due up to `now` (a timer expiry); returns the gestures recognised.
    public mutating func advance(to now: Instant) -> [RecognizedGesture] {
        handle([], now: now)
    }

    private func channelIndex(of button: Button) -> Int? {
        channels.firstIndex { $0.button == button }
    }

    /// A stable sort by (time, button).
    private static func sortedByTime<Element>(
        _ elements: [Element], key: (Element) -> (Instant, UInt8)
    ) -> [Element] {
        var keyed: [(time: Instant, button: UInt8, offset: Int, element: Element)] = []
        for (offset, element) in elements.enumerated() {
            let (time, button) = key(element)
            keyed.append((time, button, offset, element))
        }
        keyed.sort { ($0.time, $0.button, $0.offset) < ($1.time, $1.button, $1.offset) }
        var result: [Element] = []
        for entry in keyed { result.append(entry.element) }
        return result
    }
}
