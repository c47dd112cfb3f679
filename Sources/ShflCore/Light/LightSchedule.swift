/// What the status LED shows, as a function of time: the event loop's single source of truth
/// for the LED (SPEC §6).
///
/// Three layers, the top one winning while it lasts:
/// 1. the base pattern of the player's state (`show(_:from:)`), repeating from the instant it
///    was shown;
/// 2. an announcement played once over it, such as the capacity code (`announce(count:at:)`);
/// 3. the press acknowledgement (`acknowledge(at:)`).
/// The lower layers keep running underneath: when an overlay ends, the base pattern is exactly
/// where it would have been without it.
///
/// Everything is computed from absolute instants, never from "time since the last call", so
/// the answers do not depend on when or how often the event loop asks: a late wake-up shows the
/// level that is right for the instant it woke at, and no later blink moves. The loop's job:
///
///     light.setLit(schedule.isLit(at: now))
///     timer.arm(at: schedule.nextChange(after: now))   // nil: disarm, nothing will change
///
/// after every event it handles and every time the timer fires.
///
/// The schedule keeps no history: it answers for instants from its latest change (`show`,
/// `acknowledge`, `announce`) on. The event loop only moves forward, so it never needs older
/// answers; to record what was shown, drive a `StatusLight` (see `SimulatedStatusLight`).
public struct LightSchedule: Sendable, CustomStringConvertible {
    /// The base pattern: the player's state.
    public private(set) var pattern: LightPattern
    /// When the base pattern started; its phase counts from here.
    public private(set) var patternStart: Instant
    private var announcement: Overlay?
    private var acknowledgement: Acknowledgement?

    /// A pattern played once over the base pattern.
    private struct Overlay: Sendable {
        var pattern: LightPattern
        var start: Instant
        var end: Instant
    }

    /// The LED held at one level from `start` until `end`.
    private struct Acknowledgement: Sendable {
        var lit: Bool
        var start: Instant
        var end: Instant
    }

    /// A schedule showing `pattern` from `start` (by default the heartbeat of "no stick", the
    /// state the player starts in).
    public init(showing pattern: LightPattern = LightPatterns.heartbeat, from start: Instant) {
        self.pattern = pattern
        self.patternStart = start
    }

    /// Shows the base pattern of a new state, starting its first step at `start`.
    ///
    /// Showing the pattern already shown changes nothing and keeps its phase, so
    /// `loading → loading(next)` or `paused → stopped` do not stutter. An announcement in
    /// progress is not cut: the user asked for it and it is short; the new pattern runs
    /// underneath and appears when the announcement ends (use `cancelAnnouncement(at:)` to cut
    /// it, e.g. when the stick is pulled). The acknowledgement flicker is not touched either.
    public mutating func show(_ pattern: LightPattern, from start: Instant) {
        guard pattern != self.pattern else { return }
        self.pattern = pattern
        self.patternStart = start
    }

    /// Acknowledges an accepted press: from `instant` the LED shows the opposite of what it
    /// showed just before, for `LightPatterns.acknowledgementDuration`, whatever happens below.
    ///
    /// Call it as soon as the press is accepted, before the state change the press causes: the
    /// LED then changes at the press instant whatever the new state shows (PLAY while playing:
    /// the LED goes dark at once and stays dark as the paused pattern starts dark). A second
    /// press during a flicker inverts it again, so every press changes the LED.
    public mutating func acknowledge(at instant: Instant) {
        acknowledgement = Acknowledgement(
            lit: !isLit(at: instant), start: instant,
            end: instant + LightPatterns.acknowledgementDuration)
    }

    /// Starts the capacity code for `count` tracks at `instant` (see
    /// `LightPatterns.capacity(count:)`), replacing any announcement in progress.
    public mutating func announce(count: Int, at instant: Instant) {
        announce(LightPatterns.capacity(count: count), at: instant)
    }

    /// Plays the steps of `pattern` once over the base pattern from `instant` (even if the
    /// pattern repeats), replacing any announcement in progress.
    public mutating func announce(_ pattern: LightPattern, at instant: Instant) {
        announcement = Overlay(pattern: pattern, start: instant, end: instant + pattern.duration)
    }

    /// Ends the announcement in progress at `instant`, if there is one; the base pattern shows
    /// from then on.
    public mutating func cancelAnnouncement(at instant: Instant) {
        guard let current = announcement, instant < current.end else { return }
        announcement?.end = instant < current.start ? current.start : instant
    }

    /// When the announcement in progress (or the last one) ends, if there was one.
    public var announcementEnd: Instant? {
        announcement?.end
    }

    /// Whether the LED is lit at `instant`.
    public func isLit(at instant: Instant) -> Bool {
        if let flicker = acknowledgement, flicker.start <= instant, instant < flicker.end {
            return flicker.lit
        }
        if let overlay = announcement, overlay.start <= instant, instant < overlay.end {
            return overlay.pattern.isLit(atOffset: instant - overlay.start)
        }
        return pattern.isLit(atOffset: instant - patternStart)
    }

    /// The first instant after `instant` at which the LED's level changes, or nil if it never
    /// changes again (steady on with no overlay pending). Arm the loop's timer at exactly this.
    public func nextChange(after instant: Instant) -> Instant? {
        let level = isLit(at: instant)
        var cursor = instant
        // Each boundary is an instant where some layer may change; the first one where the
        // visible level differs is the answer. The loop ends: overlays are finite, and the
        // base pattern's boundaries are real changes (or there are none).
        while let boundary = nextBoundary(after: cursor) {
            if isLit(at: boundary) != level { return boundary }
            cursor = boundary
        }
        return nil
    }

    /// "slow blink from 1000ms, capacity 47 from 2000ms to 12350ms, flicker off until 2080ms".
    public var description: String {
        var text = pattern.name + " from " + patternStart.description
        if let overlay = announcement {
            text += ", " + overlay.pattern.name + " from " + overlay.start.description + " to "
                + overlay.end.description
        }
        if let flicker = acknowledgement {
            text += ", flicker " + (flicker.lit ? "on" : "off") + " until " + flicker.end.description
        }
        return text
    }

    /// The earliest instant after `instant` at which any layer starts, ends or changes level.
    private func nextBoundary(after instant: Instant) -> Instant? {
        var earliest: Instant? = nil
        func consider(_ candidate: Instant?) {
            guard let candidate, candidate > instant else { return }
            if let current = earliest, current <= candidate { return }
            earliest = candidate
        }
        if let flicker = acknowledgement {
            consider(flicker.start)
            consider(flicker.end)
        }
        if let overlay = announcement {
            consider(overlay.start)
            consider(overlay.end)
            if overlay.start <= instant, instant < overlay.end,
                let change = overlay.pattern.nextChange(afterOffset: instant - overlay.start)
            {
                consider(overlay.start + change)
            }
        }
        if let change = pattern.nextChange(afterOffset: instant - patternStart) {
            consider(patternStart + change)
        }
        return earliest
    }
}
