import CALSA
import ShflCore

/// The `OutputVolume` port on the ALSA simple mixer of a card: the first playback volume
/// control among the usual names ("Master", "PCM", "Headphone", "Speaker", "Digital"), set in
/// decibels on the same perceptual curve as the software gain (cubic: 50 → -18 dB).
public final class ALSAMixerVolume: OutputVolume {
    public let card: String
    /// The control in use, e.g. "PCM".
    public let controlName: String
    private let mixer: OpaquePointer
    private let element: OpaquePointer
    private let hasDecibels: Bool
    private let minimum: Int
    private let maximum: Int

    static let preferredControls = ["Master", "PCM", "Headphone", "Speaker", "Digital"]

    /// Opens the mixer of `card` ("hw:0", "default", ...) and picks its volume control; nil when
    /// the card has no mixer or no playback volume control (use `SoftwareVolume` then).
    public init?(card: String) {
        var opened: OpaquePointer?
        guard snd_mixer_open(&opened, 0) >= 0, let mixer = opened else { return nil }
        guard snd_mixer_attach(mixer, card) >= 0, snd_mixer_selem_register(mixer, nil, nil) >= 0,
              snd_mixer_load(mixer) >= 0 else {
            snd_mixer_close(mixer)
            return nil
        }
        var found: (OpaquePointer, String)?
        var element = snd_mixer_first_elem(mixer)
        var candidates: [(OpaquePointer, String)] = []
        while let current = element {
            if snd_mixer_selem_has_playback_volume(current) != 0, let name = snd_mixer_selem_get_name(current) {
                candidates.append((current, String(cString: name)))
            }
            element = snd_mixer_elem_next(current)
        }
        for preferred in ALSAMixerVolume.preferredControls where found == nil {
            found = candidates.first { $0.1 == preferred }
        }
        guard let (chosen, name) = found ?? candidates.first else {
            snd_mixer_close(mixer)
            return nil
        }
        var low = 0
        var high = 0
        self.hasDecibels = snd_mixer_selem_get_playback_dB_range(chosen, &low, &high) >= 0 && high > low
        if !hasDecibels { _ = snd_mixer_selem_get_playback_volume_range(chosen, &low, &high) }
        self.mixer = mixer
        self.element = chosen
        self.card = card
        self.controlName = name
        self.minimum = low
        self.maximum = high
    }

    deinit {
        snd_mixer_close(mixer)
    }

    public func setLevel(_ level: Int) throws(DeviceError) {
        let result: Int32
        if hasDecibels {
            // Hundredths of a dB, as alsa-lib counts them; never below the control's range.
            let decibels = max(ALSAMixerVolume.centibels(forLevel: level), minimum)
            result = level <= 0
                ? snd_mixer_selem_set_playback_dB_all(element, minimum, -1)
                : snd_mixer_selem_set_playback_dB_all(element, min(decibels, maximum), -1)
        } else {
            let clamped = min(max(level, 0), 100)
            result = snd_mixer_selem_set_playback_volume_all(element, minimum + (maximum - minimum) * clamped / 100)
        }
        guard result >= 0 else {
            throw DeviceError("ALSA mixer " + card + " '" + controlName + "': cannot set volume: " + String(cString: snd_strerror(result)), code: result)
        }
    }

    /// The cubic curve in hundredths of a dB: 20·log10((level/100)^3) = 60·log10(level/100).
    /// 100 → 0, 50 → -1806, 10 → -6000; 0 → Int.min (mute).
    static func centibels(forLevel level: Int) -> Int {
        guard level > 0 else { return Int.min }
        guard level < 100 else { return 0 }
        // log10 without libm on the hot path is not needed here; this runs on button presses.
        var value = Double(level) / 100
        var log2 = 0.0
        // log2 by repeated squaring (50 bits of precision is plenty for centibels).
        var integer = 0.0
        while value < 1 { value *= 2; integer -= 1 }
        var fraction = 0.5
        for _ in 0..<30 {
            value *= value
            if value >= 2 { value /= 2; log2 += fraction }
            fraction /= 2
        }
        log2 += integer
        return Int((6000 * log2 * 0.301_029_995_663_981_2).rounded())
    }
}
