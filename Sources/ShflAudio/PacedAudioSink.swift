import CSystem
import ShflCore
import ShflSystem

/// An `AudioSink` that takes as long as the audio it writes lasts, around another sink: the
/// real-time behaviour of a sound card for outputs that have none (ALSA's `null` and `file`
/// plugins: the end-to-end tests, and the demo writing a WAV file). It keeps up to `lead` of
/// audio "queued" ahead of real time, like a device buffer, and sleeps to absolute deadlines
/// (`clock_nanosleep(TIMER_ABSTIME)`), so it never drifts. Paused, the clock stops; `discard`
/// drops the queued lead. With `isPacing` false it passes everything straight through.
public final class PacedAudioSink<Inner: AudioSink>: AudioSink {
    public let inner: Inner
    public let isPacing: Bool
    private let lead: Duration
    private let clock = SystemMonotonicClock()
    private var rate = 44_100
    private var channels = 2
    /// The instant the frames written so far will have finished playing.
    private var playedUntil: Instant?
    private var pausedAt: Instant?

    public init(_ inner: Inner, pacing: Bool, lead: Duration = .milliseconds(100)) {
        self.inner = inner
        self.isPacing = pacing
        self.lead = lead
    }

    public var underruns: Int { inner.underruns }

    public func configure(_ format: AudioFormat) throws(DeviceError) {
        if format.sampleRate != rate || format.channels != channels {
            // Another format: the device would drain first.
            try waitUntilPlayed(lead: .zero)
            playedUntil = nil
        }
        rate = format.sampleRate
        channels = format.channels
        try inner.configure(format)
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) {
        try inner.write(samples)
        guard isPacing, rate > 0 else { return }
        let now = clock.now
        let frames = Int64(samples.count / max(channels, 1))
        let start = max(playedUntil ?? now, now)
        playedUntil = start + .nanoseconds(frames * 1_000_000_000 / Int64(rate))
        try waitUntilPlayed(lead: lead)
    }

    @discardableResult
    public func setPaused(_ paused: Bool) throws(DeviceError) -> Int {
        let dropped = try inner.setPaused(paused)
        if paused {
            pausedAt = clock.now
        } else if let pausedAt, let until = playedUntil {
            playedUntil = until + (clock.now - pausedAt)
            self.pausedAt = nil
        }
        return dropped
    }

    public func discard() throws(DeviceError) {
        try inner.discard()
        playedUntil = nil
    }

    public func drain() throws(DeviceError) {
        try waitUntilPlayed(lead: .zero)
        try inner.drain()
        playedUntil = nil
    }

    private func waitUntilPlayed(lead: Duration) throws(DeviceError) {
        guard isPacing, let until = playedUntil else { return }
        let wake = until - lead
        guard wake > clock.now else { return }
        var deadline = timespec()
        deadline.tv_sec = Int(wake.nanoseconds / 1_000_000_000)
        deadline.tv_nsec = Int(wake.nanoseconds % 1_000_000_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == Errno.interrupted.code {}
    }
}
