/// Port: the audio output device.
///
/// Contract:
/// - `configure(_:)` prepares the device for `format`. Configuring the format it already has
///   keeps the stream running, so consecutive tracks of one format play gaplessly.
/// - `write(_:)` queues interleaved frames in the configured format and blocks until the
///   device took them all (a real device paces the caller); it recovers underruns by itself
///   and counts them in `underruns`.
/// - `setPaused(_:)` holds or releases playback without closing the device (no pop). Queued
///   audio is kept where the device can pause; otherwise it is dropped and `setPaused(true)`
///   returns how many frames were dropped, so the caller plays them again after the pause.
/// - `discard()` drops queued audio at once (skip cuts within one period); `drain()` blocks
///   until queued audio has played (the end of the last track).
/// - Errors name the device.
/// Used by the audio thread only.
/// Adapters: `ALSAAudioSink` (alsa-lib), `SimulatedAudioSink` (records frames).
public protocol AudioSink: AnyObject {
    var underruns: Int { get }
    func configure(_ format: AudioFormat) throws(DeviceError)
    func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError)
    @discardableResult
    func setPaused(_ paused: Bool) throws(DeviceError) -> Int
    func discard() throws(DeviceError)
    func drain() throws(DeviceError)
}
