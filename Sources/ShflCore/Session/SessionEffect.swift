/// What the shell must do after a `PlayerSession` step: the player's effects, plus the
/// system-level ones that come from gestures.
public enum SessionEffect: Hashable, Sendable {
    case player(PlayerEffect)
    /// The power-off hold completed: save, stop, and shut the device down.
    case powerOff
}
