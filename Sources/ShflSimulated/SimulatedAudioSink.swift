import ShflCore

/// The `AudioSink` port for tests and the demo: keeps every frame written, so a test can
/// compare the audio with what it expects, sample for sample. The simulated device plays
/// instantly: it always has room again at once (`waitUntilWritable` returns `.writable`
/// without waiting), though `framesPerWrite` can make it take little at a time.
public final class SimulatedAudioSink: AudioSink {
    public private(set) var format: AudioFormat?
    /// Every configuration, in order (a repeated format appears once per call).
    public private(set) var configurations: [AudioFormat] = []
    /// All samples written and not discarded, interleaved.
    public private(set) var samples: [Int16] = []
    /// Calls of `discard()`. The simulated device plays instantly, so nothing is dropped.
    public private(set) var discardCount = 0
    public private(set) var isPaused = false
    /// Samples written while paused (a player bug: the audio thread must not write then).
    public private(set) var samplesWrittenWhilePaused = 0
    public private(set) var drainCount = 0
    public var underruns = 0
    /// What `queuedFrames` answers: a test sets it to stand for a device's delay.
    public var queuedFrames = 0
    /// When set, the next call that can fail fails with this error, once.
    public var nextFailure: DeviceError?
    /// When set, every call that can fail fails with this error (a device that is gone).
    public var persistentFailure: DeviceError?
    /// Calls of `configure`, successful or not (to check back-off).
    public private(set) var configureAttempts = 0
    /// When set, a write takes at most this many frames (a device with a small buffer), so the
    /// caller has to wait and write the rest.
    public var framesPerWrite: Int?
    /// Calls of `waitUntilWritable`.
    public private(set) var waitCount = 0

    public init() {}

    public func configure(_ format: AudioFormat) throws(DeviceError) {
        configureAttempts += 1
        try failIfAsked()
        self.format = format
        configurations.append(format)
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int {
        try failIfAsked()
        guard let format else { throw DeviceError("simulated sink: write before configure") }
        guard samples.count % format.channels == 0 else {
            throw DeviceError("simulated sink: partial frame of " + String(samples.count) + " samples")
        }
        let frames = min(samples.count / format.channels, framesPerWrite ?? Int.max)
        let taken = UnsafeBufferPointer(rebasing: samples[0..<(frames * format.channels)])
        if isPaused { samplesWrittenWhilePaused += taken.count }
        self.samples.append(contentsOf: taken)
        return frames
    }

    public func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp {
        try failIfAsked()
        waitCount += 1
        return .writable
    }

    @discardableResult
    public func setPaused(_ paused: Bool) throws(DeviceError) -> Int {
        try failIfAsked()
        isPaused = paused
        return 0
    }

    public func discard() throws(DeviceError) {
        try failIfAsked()
        discardCount += 1
    }

    public func drain() throws(DeviceError) {
        try failIfAsked()
        drainCount += 1
    }

    /// Frames written so far in the current format.
    public var frameCount: Int {
        guard let format else { return 0 }
        return samples.count / format.channels
    }

    private func failIfAsked() throws(DeviceError) {
        if let failure = persistentFailure { throw failure }
        if let failure = nextFailure {
            nextFailure = nil
            throw failure
        }
    }
}
