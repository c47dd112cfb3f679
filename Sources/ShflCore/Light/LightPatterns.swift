/// The table of LED patterns (SPEC §6): every timing the LED uses is in this one place.
///
/// | state            | pattern      | steps (ms)                                      | period  | lit  |
/// |------------------|--------------|-------------------------------------------------|---------|------|
/// | playing          | steady on    | on                                              | -       | 100% |
/// | paused, stopped  | slow blink   | off 1000, on 1000                               | 2000 ms | 50%  |
/// | loading          | fast blink   | on 100, off 100                                 | 200 ms  | 50%  |
/// | empty (no stick) | heartbeat    | on 100, off 1900                                | 2000 ms | 5%   |
/// | error            | triple blink | on 200, off 200, on 200, off 200, on 200, off 1200 | 2200 ms | 27%  |
///
/// Each pattern differs from every other at a glance: steady against blinking, one pulse per
/// period against three, a period ten times shorter, or a lit fraction ten times smaller.
///
/// Why `stopped` shows the paused pattern: to the user both mean the same thing, "tracks are
/// here, press PLAY to hear them", and PLAY does that in both. A sixth pattern would be one
/// more to learn for no decision the user can make differently.
///
/// Why the slow blink starts dark: pausing from steady on must show at once, so the first step
/// of the paused pattern is the one that differs from playing. The other patterns start lit so
/// that the new state shows at the instant it begins.
///
/// Overlays (see `LightSchedule`): the press acknowledgement holds the LED at the opposite of
/// what it showed at the press for `acknowledgementDuration` (80 ms: long enough to see on a
/// lit and on a dark LED, short enough to feel instant); the capacity code is `capacity(count:)`.
public enum LightPatterns {
    /// The pattern for a player state.
    public static func pattern(for state: PlaybackState) -> LightPattern {
        switch state {
        case .playing: steadyOn
        case .paused, .stopped: slowBlink
        case .loading: fastBlink
        case .empty: heartbeat
        case .error: tripleBlink
        }
    }

    /// Playing.
    public static var steadyOn: LightPattern {
        .steady("steady on", lit: true)
    }

    /// Paused, and stopped with tracks loaded: "press PLAY".
    public static var slowBlink: LightPattern {
        LightPattern("slow blink", repeats: true, steps: [.off(1_000), .on(1_000)])
    }

    /// Loading or scanning.
    public static var fastBlink: LightPattern {
        LightPattern("fast blink", repeats: true, steps: [.on(100), .off(100)])
    }

    /// No stick (or no playable tracks): a short blink every two seconds, "alive, waiting".
    public static var heartbeat: LightPattern {
        LightPattern("heartbeat", repeats: true, steps: [.on(100), .off(1_900)])
    }

    /// Error: three blinks, then a pause, repeating.
    public static var tripleBlink: LightPattern {
        LightPattern(
            "triple blink", repeats: true,
            steps: [.on(200), .off(200), .on(200), .off(200), .on(200), .off(1_200)])
    }

    /// How long a press acknowledgement holds the LED at the opposite level.
    public static var acknowledgementDuration: Duration {
        .milliseconds(80)
    }

    /// The largest count the capacity code shows: the library never loads more (SPEC §2).
    public static var capacityLimit: Int { Library.capacity }

    /// The capacity code for `count` loaded tracks, played once:
    /// 1200 ms dark, then the tens as long blinks (on 600 ms, 400 ms apart), 1200 ms dark, then
    /// the units as short blinks (on 150 ms, 350 ms apart), then 1200 ms dark.
    /// - 47: 4 long, pause, 7 short (10.35 s in all).
    /// - Multiples of ten (30, 100, 120) have no units: the long blinks and no pause between
    ///   groups; counts below ten have no tens: short blinks only.
    /// - 0 is one 2-second glow: three times a long blink, unlike any digit, so "nothing
    ///   loaded" never reads as a missed request.
    /// - Counts are clamped to 0...`capacityLimit`, so the code never lasts more than 14 s.
    public static func capacity(count: Int) -> LightPattern {
        let clamped = count < 0 ? 0 : (count > capacityLimit ? capacityLimit : count)
        let frame = LightStep.off(1_200)
        var steps: [LightStep] = [frame]
        if clamped == 0 {
            steps.append(.on(2_000))
        }
        let tens = clamped / 10
        let units = clamped % 10
        for index in 0..<tens {
            if index > 0 { steps.append(.off(400)) }
            steps.append(.on(600))
        }
        if tens > 0 && units > 0 {
            steps.append(.off(1_200))
        }
        for index in 0..<units {
            if index > 0 { steps.append(.off(350)) }
            steps.append(.on(150))
        }
        steps.append(frame)
        return LightPattern("capacity " + String(clamped), repeats: false, steps: steps)
    }
}
