/// The player's state (SPEC §4). Transitions live in `Player.handle(_:)`, nowhere else.
public enum PlaybackState: Hashable, Sendable, CustomStringConvertible {
    /// No stick, or a stick with no playable tracks.
    case empty
    /// Tracks loaded, not playing.
    case stopped
    /// The track is being opened; audio has not started yet.
    case loading(TrackPath)
    case playing(TrackPath)
    case paused(TrackPath)
    case error(PlayerFailure)

    /// The state's name without its payload: "empty", "stopped", "loading", ...
    public var name: String {
        switch self {
        case .empty: "empty"
        case .stopped: "stopped"
        case .loading: "loading"
        case .playing: "playing"
        case .paused: "paused"
        case .error: "error"
        }
    }

    /// The track the state is about, if any.
    public var track: TrackPath? {
        switch self {
        case .loading(let track), .playing(let track), .paused(let track): track
        case .empty, .stopped, .error: nil
        }
    }

    public var description: String {
        switch self {
        case .empty, .stopped: name
        case .loading(let track), .playing(let track), .paused(let track):
            name + "(" + track.description + ")"
        case .error(let failure): "error(" + failure.description + ")"
        }
    }
}

/// Why the player is in the error state.
public enum PlayerFailure: Hashable, Sendable, CustomStringConvertible {
    /// Every loaded track failed to play, one after the other.
    case allTracksFailed(count: Int)
    /// A stick arrived but could not be mounted or read (`reason` names the device).
    case stickUnusable(reason: String)

    public var description: String {
        switch self {
        case .allTracksFailed(let count): "all " + String(count) + " tracks failed"
        case .stickUnusable(let reason): "stick unusable: " + reason
        }
    }
}
