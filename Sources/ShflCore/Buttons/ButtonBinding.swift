/// What one button does: which gesture a press fires, and what holding it does.
///
/// A button either fires at once when pressed (and may repeat while held, as volume buttons
/// do), or it has hold gestures, and then its press can only be known at release: a press fires
/// when the button is released before the first hold threshold, and each hold fires while the
/// button is still down, at the instant its threshold is crossed. The release after a hold
/// fires nothing. All durations count from the settled press (see `Debouncer`).
///
/// Out-of-range data from a config file never crashes: negative durations count as zero,
/// durations above `maximumDuration` as that maximum, and repeat intervals below
/// `Repeat.minimumInterval` as that minimum.
public enum ButtonBinding: Hashable, Sendable {
    /// Fires `gesture` at the settled press; with a `Repeat`, again while held.
    case press(Gesture, repeating: Repeat?)
    /// Fires `press` (if any) at a release before the first hold threshold, and every hold's
    /// gesture while held, at its threshold.
    case pressOrHold(press: Gesture?, holds: [Hold])

    /// Longest duration the button code works with (a day); longer values are clamped to it.
    public static let maximumDuration = Duration.seconds(86_400)

    /// A hold gesture: `gesture` fires once the button has been held for `after`.
    public struct Hold: Hashable, Sendable, CustomStringConvertible {
        public var after: Duration
        public var gesture: Gesture

        public init(after: Duration, gesture: Gesture) {
            self.after = after
            self.gesture = gesture
        }

        /// E.g. "power off after 6000ms".
        public var description: String {
            gesture.description + " after " + after.millisecondsDescription
        }
    }

    /// Auto-repeat while held: the first repeat `delay` after the press, then every `interval`,
    /// like a keyboard's typematic repeat.
    public struct Repeat: Hashable, Sendable, CustomStringConvertible {
        public var delay: Duration
        public var interval: Duration

        /// Shorter intervals are raised to this: nobody can perceive faster steps, and it bounds
        /// the work done for a button that is stuck down.
        public static let minimumInterval = Duration.milliseconds(10)

        public init(delay: Duration, interval: Duration) {
            self.delay = delay
            self.interval = interval
        }

        /// E.g. "first after 500ms, then every 250ms".
        public var description: String {
            "first after " + delay.millisecondsDescription + ", then every "
                + interval.millisecondsDescription
        }
    }

    /// The binding with every duration clamped to the documented range and the holds sorted by
    /// threshold (holds with equal thresholds keep their order). What `ButtonInput` runs.
    public var normalized: ButtonBinding {
        switch self {
        case .press(let gesture, let timing):
            guard let timing else { return .press(gesture, repeating: nil) }
            let interval = ButtonBinding.clamp(timing.interval)
            return .press(
                gesture,
                repeating: Repeat(
                    delay: ButtonBinding.clamp(timing.delay),
                    interval: interval < Repeat.minimumInterval ? Repeat.minimumInterval : interval))
        case .pressOrHold(let press, let holds):
            var clamped: [(offset: Int, hold: Hold)] = []
            for (offset, hold) in holds.enumerated() {
                let after = ButtonBinding.clamp(hold.after)
                clamped.append((offset, Hold(after: after, gesture: hold.gesture)))
            }
            clamped.sort { ($0.hold.after, $0.offset) < ($1.hold.after, $1.offset) }
            var sorted: [Hold] = []
            for entry in clamped { sorted.append(entry.hold) }
            return .pressOrHold(press: press, holds: sorted)
        }
    }

    /// `duration` limited to `0...maximumDuration`.
    static func clamp(_ duration: Duration) -> Duration {
        if duration < .zero { return .zero }
        if duration > maximumDuration { return maximumDuration }
        return duration
    }
}
