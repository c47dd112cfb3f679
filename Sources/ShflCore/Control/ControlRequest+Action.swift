/// What the event loop does about a request (`ControlRequest.action(in:)`).
public enum ControlAction: Hashable, Sendable {
    /// Feed this input to `Player.handle(_:)`, then reply (with the status, say).
    case input(PlayerInput)
    /// Drive this button to this level, as the wiring would (the simulated buttons, or a
    /// gesture injected on real hardware); reply once it is taken.
    case button(Button, ButtonLevel)
    /// Reply with `StatusReport.reply`.
    case report
    /// Reply with `StatusReport.capacityReply`.
    case capacity
    /// Nothing to change (`play` while playing, `pause` while not playing); reply with the status.
    case nothing
}

extension ControlRequest {
    /// What the request asks of a player in `state`. The player knows only PLAY as a toggle,
    /// so `play` and `pause` become `.playPause` when it would change something, `.nothing`
    /// otherwise (also while a track is loading, when PLAY is ignored, and with an unusable
    /// stick, which only pulling it clears).
    public func action(in state: PlaybackState) -> ControlAction {
        switch self {
        case .status: return .report
        case .capacity: return .capacity
        case .toggle: return .input(.playPause)
        case .skip: return .input(.skip)
        case .reshuffle: return .input(.reshuffle)
        case .volume(let change): return .input(.volume(change))
        case .press(let button): return .button(button, .pressed)
        case .release(let button): return .button(button, .released)
        case .play:
            switch state {
            case .stopped, .paused, .error(.allTracksFailed): return .input(.playPause)
            case .empty, .loading, .playing, .error(.stickUnusable): return .nothing
            }
        case .pause:
            switch state {
            case .playing: return .input(.playPause)
            case .empty, .stopped, .loading, .paused, .error: return .nothing
            }
        }
    }
}
