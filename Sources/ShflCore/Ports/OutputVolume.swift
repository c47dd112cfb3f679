/// Port: the output volume, 0...100 (the player's `VolumeSettings` clamp it first).
///
/// Contract:
/// - `setLevel(_:)` takes effect within one audio period and never blocks for long; 0 is
///   silence, 100 full volume (the decoded samples unchanged, for software gain).
/// - The mapping from level to loudness is perceptual (equal steps sound like equal changes).
/// Called from the event-loop thread.
/// Adapters: `ALSAMixerVolume` (the device's playback volume control, when it has one),
/// `SoftwareVolume` (gain applied by the audio thread).
public protocol OutputVolume: AnyObject {
    func setLevel(_ level: Int) throws(DeviceError)
}
