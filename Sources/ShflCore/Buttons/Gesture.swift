/// What the user asked for with the buttons: the input of the player, independent of which
/// button or how long it was held (that mapping is `GestureSettings`).
public enum Gesture: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Toggle between playing and paused (PLAY press).
    case playPause
    /// Jump to the next track of the shuffle (SKIP press).
    case skip
    /// Blink the capacity ("47/120") on the LED (PLAY hold).
    case announceCapacity
    /// Start a new shuffle of the loaded tracks (SKIP hold).
    case reshuffle
    /// Shut the device down safely (long PLAY hold, if enabled).
    case powerOff
    /// One volume step up (VOL+ press, repeated while held).
    case volumeUp
    /// One volume step down (VOL- press, repeated while held).
    case volumeDown

    public var description: String {
        switch self {
        case .playPause: "play/pause"
        case .skip: "skip"
        case .announceCapacity: "announce capacity"
        case .reshuffle: "reshuffle"
        case .powerOff: "power off"
        case .volumeUp: "volume up"
        case .volumeDown: "volume down"
        }
    }
}
