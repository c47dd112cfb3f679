import ShflCore
import Testing

@Suite struct LightCapacityCodeTests {
    /// What a person counting blinks reads from a stretch of LED trace that starts dark: long
    /// blinks are tens, short blinks units, a glow of a second or more is zero. Also returns the
    /// dark gaps, so tests can check the framing.
    struct Reading {
        var count = 0
        var longBlinks = 0
        var shortBlinks = 0
        var sawZero = false
        /// Dark stretches between blinks, in order (not the frames before and after).
        var gaps: [Duration] = []
        var leadingDark = Duration.zero
        var trailingDark = Duration.zero
        /// The long blinks all came before the short ones.
        var tensFirst = true

        init(_ trace: [LightChange], end: Instant) {
            guard let first = trace.first, !first.lit else { return }
            var lastOff = first.instant
            for (index, change) in trace.enumerated() where change.lit {
                let off = index + 1 < trace.count ? trace[index + 1].instant : end
                let dark = change.instant - lastOff
                if lastOff == first.instant { leadingDark = dark } else { gaps.append(dark) }
                let length = off - change.instant
                if length >= .seconds(1) {
                    sawZero = true
                } else if length >= .milliseconds(400) {
                    if shortBlinks > 0 { tensFirst = false }
                    longBlinks += 1
                } else {
                    shortBlinks += 1
                }
                lastOff = off
            }
            trailingDark = end - lastOff
            count = longBlinks * 10 + shortBlinks
        }
    }

    /// Plays the code over a steady dark base and reads it back.
    static func read(count: Int) -> (Reading, LightPattern) {
        let start = Instant.milliseconds(50_000)
        let code = LightPatterns.capacity(count: count)
        var schedule = LightSchedule(showing: .steady("dark", lit: false), from: .zero)
        schedule.announce(count: count, at: start)
        let end = start + code.duration
        #expect(schedule.announcementEnd == end)
        return (Reading(schedule.timeline(from: start, until: end), end: end), code)
    }

    @Test(arguments: [
        (0, 0, 0), (1, 0, 1), (9, 0, 9), (10, 1, 0), (30, 3, 0), (47, 4, 7), (100, 10, 0), (120, 12, 0),
    ])
    func tensAreLongBlinksAndUnitsShortBlinks(count: Int, long: Int, short: Int) {
        let (reading, code) = Self.read(count: count)
        #expect(reading.longBlinks == long, "\(code)")
        #expect(reading.shortBlinks == short, "\(code)")
        #expect(reading.sawZero == (count == 0), "\(code)")
        #expect(reading.tensFirst)
        #expect(!code.repeats)
        // Framed by a clear dark gap before and after, longer than any gap inside the code.
        #expect(reading.leadingDark >= .milliseconds(1_200), "\(code)")
        #expect(reading.trailingDark >= .milliseconds(1_200), "\(code)")
        // Inside a group, blinks are at most 400 ms apart; tens and units are 1200 ms apart.
        let pauses = reading.gaps.filter { $0 > .milliseconds(400) }
        #expect(pauses == (long > 0 && short > 0 ? [.milliseconds(1_200)] : []), "\(code)")
    }

    @Test func fortySevenExactly() {
        var schedule = LightSchedule(showing: LightPatterns.steadyOn, from: .zero)
        schedule.announce(count: 47, at: .milliseconds(10_000))
        #expect(LightChange.render(schedule.timeline(from: .milliseconds(10_000), until: .milliseconds(30_000)))
            == "off@10000ms"
            + " on@11200ms off@11800ms on@12200ms off@12800ms on@13200ms off@13800ms on@14200ms off@14800ms"
            + " on@16000ms off@16150ms on@16500ms off@16650ms on@17000ms off@17150ms on@17500ms off@17650ms"
            + " on@18000ms off@18150ms on@18500ms off@18650ms on@19000ms off@19150ms"
            + " on@20350ms")
    }

    @Test func everyCountReadsBack() {
        for count in 0...LightPatterns.capacityLimit {
            #expect(Self.read(count: count).0.count == count)
        }
    }

    @Test func countsOutsideTheLibraryAreClamped() {
        #expect(LightPatterns.capacity(count: -3) == LightPatterns.capacity(count: 0))
        #expect(LightPatterns.capacity(count: 5_000) == LightPatterns.capacity(count: 120))
        #expect(LightPatterns.capacity(count: 120).duration == .seconds(14))
    }

    /// The base pattern keeps running underneath the code and reappears in its own phase.
    @Test func theBasePatternResumesInPhase() {
        var schedule = LightSchedule(showing: LightPatterns.slowBlink, from: .zero)
        schedule.announce(count: 1, at: .milliseconds(500))
        // The code: dark 500..1700, on 1700..1850, dark to 3050; slow blink is lit 3000..4000.
        #expect(LightChange.render(schedule.timeline(from: .milliseconds(500), until: .milliseconds(5_000)))
            == "off@500ms on@1700ms off@1850ms on@3050ms off@4000ms")
    }

    /// A state change in the middle of the code does not cut it (the user asked for it, and a
    /// track ending must not swallow it); the new state's pattern starts at the change, runs
    /// underneath, and shows in its own phase when the code ends.
    @Test func aStateChangeMidCodeLetsTheCodeFinish() {
        var schedule = LightSchedule(showing: LightPatterns.steadyOn, from: .zero)
        schedule.announce(count: 47, at: .zero)
        let codeOnly = schedule.timeline(from: .zero, until: .milliseconds(10_350))
        schedule.show(LightPatterns.slowBlink, from: .milliseconds(5_000))
        #expect(schedule.timeline(from: .zero, until: .milliseconds(10_350)) == codeOnly)
        // Slow blink from 5000: dark 5000..6000, lit 6000..7000, ...; at 10350 it is lit (10000..11000).
        #expect(LightChange.render(schedule.timeline(from: .milliseconds(10_000), until: .milliseconds(13_000)))
            == "off@10000ms on@10350ms off@11000ms on@12000ms")
    }

    /// Pulling the stick cuts the code: the event loop cancels it with the state change.
    @Test func cancellingCutsTheCode() {
        var schedule = LightSchedule(showing: LightPatterns.steadyOn, from: .zero)
        schedule.announce(count: 47, at: .zero)
        schedule.cancelAnnouncement(at: .milliseconds(5_000))
        schedule.show(LightPatterns.heartbeat, from: .milliseconds(5_000))
        #expect(schedule.announcementEnd == .milliseconds(5_000))
        #expect(LightChange.render(schedule.timeline(from: .milliseconds(4_900), until: .milliseconds(7_500)))
            == "off@4900ms on@5000ms off@5100ms on@7000ms off@7100ms")
    }

    /// A new request restarts the code; a press during the code flickers over it and the code
    /// goes on in its own time.
    @Test func aNewRequestRestartsAndAPressFlickersOver() {
        var schedule = LightSchedule(showing: LightPatterns.steadyOn, from: .zero)
        schedule.announce(count: 47, at: .zero)
        schedule.announce(count: 2, at: .milliseconds(3_000))
        #expect(schedule.announcementEnd == Instant.milliseconds(3_000) + LightPatterns.capacity(count: 2).duration)
        schedule.acknowledge(at: .milliseconds(3_100))
        #expect(LightChange.render(schedule.timeline(from: .milliseconds(3_000), until: .milliseconds(7_000)))
            == "off@3000ms on@3100ms off@3180ms on@4200ms off@4350ms on@4700ms off@4850ms on@6050ms")
    }
}
