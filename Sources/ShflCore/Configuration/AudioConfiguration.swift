/// The [audio] section: the ALSA output and the audio thread (SPEC §7).
public struct AudioConfiguration: Hashable, Sendable {
    /// The ALSA PCM: "default", "hw:1,0", "plughw:CARD=Headphones", ...
    public var device: String
    /// Which volume control the player turns.
    public var mixer: MixerChoice
    /// The ALSA buffer length (ALSA rounds it to what the device supports).
    public var bufferTime: Duration
    /// The ALSA period: how much audio is written at once, and how soon SKIP is heard.
    public var periodTime: Duration
    /// SCHED_FIFO priority of the audio thread (1...99); nil runs it as an ordinary thread.
    public var realTimePriority: Int?
    /// Lock the daemon's memory (`mlockall`) so that audio never waits for a page-in.
    public var lockMemory: Bool

    public init(
        device: String = "default",
        mixer: MixerChoice = .automatic,
        bufferTime: Duration = .microseconds(200_000),
        periodTime: Duration = .microseconds(20_000),
        realTimePriority: Int? = 50,
        lockMemory: Bool = false
    ) {
        self.device = device
        self.mixer = mixer
        self.bufferTime = bufferTime
        self.periodTime = periodTime
        self.realTimePriority = realTimePriority
        self.lockMemory = lockMemory
    }

    /// `bufferTime` in microseconds, as ALSA takes it (`ALSAAudioSink(bufferTime:)`).
    public var bufferMicroseconds: UInt32 { AudioConfiguration.microseconds(bufferTime) }

    /// `periodTime` in microseconds, as ALSA takes it (`ALSAAudioSink(periodTime:)`).
    public var periodMicroseconds: UInt32 { AudioConfiguration.microseconds(periodTime) }

    private static func microseconds(_ duration: Duration) -> UInt32 {
        UInt32(clamping: duration.nanoseconds / 1_000)
    }
}
