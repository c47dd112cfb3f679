/// Which volume control the player turns (the [audio] `mixer` key).
public enum MixerChoice: Hashable, Sendable, CustomStringConvertible {
    /// The hardware mixer of the output device's card when it has one, else software gain.
    case automatic
    /// Software gain in the audio thread, whatever the card offers.
    case software
    /// The hardware mixer of this ALSA card ("hw:0", "default").
    case card(String)

    /// The config spelling: "auto", "software" or the card's name.
    public var description: String {
        switch self {
        case .automatic: "auto"
        case .software: "software"
        case .card(let name): name
        }
    }
}
