// `poll` and `pollfd` come from <poll.h>, which Clang attributes to CALSA in this module (alsa-lib's
// header includes it first); Embedded Swift wants the owning module imported.
import CALSA
import CSystem
import ShflCore
import ShflSystem

/// An `AudioSink` that takes audio no faster than it plays, around another sink: the real-time
/// behaviour of a sound card for outputs that have none (ALSA's `null` and `file` plugins: the
/// end-to-end tests, and the demo writing a WAV file). It holds up to `lead` of audio "queued"
/// ahead of real time, like a device buffer: `write` takes only what fits in it, and
/// `waitUntilWritable` sleeps until `period` of room has played free, in `poll(2)` on the
/// interrupt descriptor, so a command ends the wait at once, as on a real device. Deadlines are
/// absolute (the instant the frames taken so far finish playing), so it never drifts. Paused,
/// the clock stops; `discard` drops the queued lead. With `isPacing` false it passes everything
/// straight through. Not thread-safe (the audio thread's, like every sink).
public final class PacedAudioSink<Inner: AudioSink>: AudioSink {
    public let inner: Inner
    public let isPacing: Bool
    private let lead: Duration
    private let period: Duration
    private let clock = SystemMonotonicClock()
    private var rate = 44_100
    private var channels = 2
    /// The instant the frames written so far will have finished playing.
    private var playedUntil: Instant?
    private var pausedAt: Instant?

    public init(_ inner: Inner, pacing: Bool, lead: Duration = .milliseconds(100), period: Duration = .milliseconds(10)) {
        self.inner = inner
        self.isPacing = pacing
        self.lead = lead
        self.period = min(period, lead)
    }

    public var underruns: Int { inner.underruns }

    /// Paced: the lead not yet played by the clock (the inner output has no clock of its own);
    /// otherwise the inner device's delay.
    public var queuedFrames: Int {
        guard isPacing else { return inner.queuedFrames }
        guard let playedUntil else { return 0 }
        let left = playedUntil - (pausedAt ?? clock.now)
        return left > .zero ? Int(left.nanoseconds * Int64(rate) / 1_000_000_000) : 0
    }

    public func configure(_ format: AudioFormat) throws(DeviceError) {
        if format.sampleRate != rate || format.channels != channels {
            // Another format: the device would drain first.
            waitUntilPlayed(lead: .zero)
            playedUntil = nil
        }
        rate = format.sampleRate
        channels = format.channels
        try inner.configure(format)
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int {
        guard isPacing, rate > 0 else { return try inner.write(samples) }
        let now = clock.now
        let start = max(playedUntil ?? now, now)
        let room = lead - (start - now)
        let roomFrames = Int(room.nanoseconds * Int64(rate) / 1_000_000_000)
        let frames = min(samples.count / max(channels, 1), roomFrames)
        guard frames > 0 else { return 0 }
        let taken = try inner.write(UnsafeBufferPointer(rebasing: samples[0..<(frames * channels)]))
        playedUntil = start + .nanoseconds(Int64(taken) * 1_000_000_000 / Int64(rate))
        return taken
    }

    public func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp {
        guard isPacing, let until = playedUntil else { return try inner.waitUntilWritable(orReadable: interrupt) }
        let wake = until - lead + period
        let now = clock.now
        // Room here already: the inner device is what is full.
        guard wake > now else { return try inner.waitUntilWritable(orReadable: interrupt) }
        return sleep(until: wake, orReadable: interrupt) ? .interrupted : .writable
    }

    @discardableResult
    public func setPaused(_ paused: Bool) throws(DeviceError) -> Int {
        let dropped = try inner.setPaused(paused)
        if paused {
            pausedAt = clock.now
        } else {
            if let pausedAt, let until = playedUntil {
                playedUntil = until + (clock.now - pausedAt)
            }
            pausedAt = nil
        }
        return dropped
    }

    public func discard() throws(DeviceError) {
        try inner.discard()
        playedUntil = nil
    }

    public func drain() throws(DeviceError) {
        waitUntilPlayed(lead: .zero)
        try inner.drain()
        playedUntil = nil
    }

    public func playOut(orReadable interrupt: Int32) throws(DeviceError) -> Bool {
        if isPacing, let until = playedUntil {
            while clock.now < until {
                if sleep(until: until, orReadable: interrupt) { return false }
            }
        }
        guard try inner.playOut(orReadable: interrupt) else { return false }
        playedUntil = nil
        return true
    }

    private func waitUntilPlayed(lead: Duration) {
        guard isPacing, let until = playedUntil else { return }
        let wake = until - lead
        while clock.now < wake {
            _ = sleep(until: wake, orReadable: -1)
        }
    }

    /// Sleeps in `poll(2)` until `wake` (rounded up to the millisecond) or until `interrupt`
    /// is readable (true). A signal ends the sleep early (false), as a spurious wake-up.
    private func sleep(until wake: Instant, orReadable interrupt: Int32) -> Bool {
        let left = (wake - clock.now).nanoseconds
        guard left > 0 else { return false }
        let milliseconds = Int32(min((left + 999_999) / 1_000_000, Int64(Int32.max)))
        var entry = pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, milliseconds)
        return ready > 0 && entry.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
    }
}
