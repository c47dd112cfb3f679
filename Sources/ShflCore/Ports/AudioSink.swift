/// Port: the audio output device.
///
/// Contract:
/// - `configure(_:)` prepares the device for `format`. Configuring the format it already has
///   keeps the stream running, so consecutive tracks of one format play gaplessly. It may block
///   while the device plays out the old format.
/// - `write(_:)` never waits for the device: it queues as many whole frames of `samples`
///   (interleaved, in the configured format) as the device has room for now and returns how
///   many it took, 0 when the device is full. The caller writes the rest later. It recovers
///   underruns by itself and counts them in `underruns`.
/// - `waitUntilWritable(orReadable:)` blocks until the device has room again (about a period),
///   or until `interrupt` (a file descriptor; negative: none) is readable, whichever comes
///   first: the audio thread waits on the device and on its command queue at once, so a
///   command is handled within the wait, not after a whole chunk has been played. It may return
///   `.writable` early (spuriously); it never busy-waits when the device is full.
/// - `setPaused(_:)` holds or releases playback without closing the device (no pop). Queued
///   audio is kept where the device can pause; otherwise it is dropped and `setPaused(true)`
///   returns how many frames were dropped, so the caller plays them again after the pause.
/// - `discard()` drops queued audio at once (skip cuts within one period); `drain()` blocks
///   until queued audio has played. `playOut(orReadable:)` is the drain the audio thread uses
///   (the end of the last track, a change of format): it returns true once queued audio has
///   played, or false as soon as `interrupt` is readable, leaving the queue playing, so a
///   command is never held for a buffer's length and audio written next joins without a gap.
///   The default blocks in `drain()`.
/// - `queuedFrames` is how much of the audio written has not been heard yet (the device's
///   delay): what the caller subtracts to know where the listener is. 0 by default (a device
///   that plays at once).
/// - Errors name the device.
/// Not thread-safe: used by the audio thread only. Nothing but `configure` and `drain` blocks
/// longer than `waitUntilWritable` says.
/// Adapters: `ALSAAudioSink` (alsa-lib), `PacedAudioSink` (real-time pacing around another
/// sink), `SimulatedAudioSink` (records frames).
public protocol AudioSink: AnyObject {
    var underruns: Int { get }
    func configure(_ format: AudioFormat) throws(DeviceError)
    /// Frames of `samples` queued (0...samples.count / channels); never blocks.
    func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int
    func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp
    @discardableResult
    func setPaused(_ paused: Bool) throws(DeviceError) -> Int
    func discard() throws(DeviceError)
    func drain() throws(DeviceError)
    func playOut(orReadable interrupt: Int32) throws(DeviceError) -> Bool
    var queuedFrames: Int { get }
}

/// Why `AudioSink.waitUntilWritable(orReadable:)` returned.
public enum AudioSinkWakeUp: Sendable, Equatable {
    /// The device has room (or the wait ended early): write again.
    case writable
    /// The interrupt descriptor is readable; the device may still be full.
    case interrupted
}

extension AudioSink {
    public var queuedFrames: Int { 0 }

    public func playOut(orReadable interrupt: Int32) throws(DeviceError) -> Bool {
        try drain()
        return true
    }

    /// Writes all of `samples` (`channels` to a frame), waiting for the device as long as it
    /// takes, with nothing to interrupt the wait: for callers without commands to watch (the
    /// self-check, tests). The audio thread uses `write` and `waitUntilWritable` itself.
    public func writeAll(_ samples: UnsafeBufferPointer<Int16>, channels: Int) throws(DeviceError) {
        let channels = max(channels, 1)
        var offset = 0
        while offset < samples.count {
            let frames = try write(UnsafeBufferPointer(rebasing: samples[offset...]))
            offset += frames * channels
            if offset < samples.count && frames == 0 {
                _ = try waitUntilWritable(orReadable: -1)
            }
        }
    }
}
