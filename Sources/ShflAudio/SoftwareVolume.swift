import ShflCore

/// The `OutputVolume` port as a gain the audio thread applies to the samples (for devices
/// without a playback volume control, such as USB DACs without a mixer, or `null`/`file`).
public final class SoftwareVolume<Decoder: TrackDecoder, Sink: AudioSink>: OutputVolume {
    private let engine: AudioEngine<Decoder, Sink>

    public init(engine: AudioEngine<Decoder, Sink>) {
        self.engine = engine
    }

    public func setLevel(_ level: Int) throws(DeviceError) {
        guard engine.send(.setVolume(level)) else {
            throw DeviceError("software volume: the audio thread does not take commands")
        }
    }
}
