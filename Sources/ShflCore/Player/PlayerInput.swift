/// Everything that can happen to the player. The event loop turns buttons, the control
/// socket, hot-plug and audio-thread reports into these and feeds them to `Player.handle(_:)`.
public enum PlayerInput: Hashable, Sendable {
    /// A stick was mounted and scanned.
    case stickLoaded(LoadedStick)
    /// A stick arrived but cannot be used (mount or scan failed); `reason` names the device.
    case stickFailed(reason: String)
    /// The stick went away (or all its tracks did).
    case stickRemoved
    /// The PLAY button or `shfl toggle`.
    case playPause
    /// The SKIP button or `shfl skip`.
    case skip
    /// The SKIP-hold gesture or `shfl reshuffle`: a new order, starting now.
    case reshuffle
    /// Volume up or down one step, or set to a level; always clamped to the limits.
    case volume(VolumeChange)
    /// The audio thread produced the first frame of the track it was given with `ticket`.
    case audioStarted(ticket: Int)
    /// The track given with `ticket` could not be opened or decoded (`reason` names why).
    case trackFailed(ticket: Int, reason: String)
    /// The track given with `ticket` played to its end.
    case trackFinished(ticket: Int)
    /// The track given with `ticket` has played up to `position`.
    case progress(ticket: Int, position: Duration)

    /// A short name for log lines.
    public var caseName: String {
        switch self {
        case .stickLoaded: "stick loaded"
        case .stickFailed: "stick failed"
        case .stickRemoved: "stick removed"
        case .playPause: "play/pause"
        case .skip: "skip"
        case .reshuffle: "reshuffle"
        case .volume: "volume"
        case .audioStarted: "audio started"
        case .trackFailed: "track failed"
        case .trackFinished: "track finished"
        case .progress: "progress"
        }
    }
}

/// A scanned stick, ready to play.
public struct LoadedStick: Hashable, Sendable {
    public var id: StickID
    /// The selected tracks (at most `Library.capacity`), in path order.
    public var tracks: [TrackPath]
    /// MP3 files found on the stick, loaded or not, whose play history is kept (the policies
    /// that choose the 120 need it); history of files not here nor in `tracks` is dropped. The
    /// loader passes only the files the saved history names, not every file on the stick.
    public var filesOnStick: [TrackPath]
    /// What the store remembered of this stick, if anything.
    public var saved: StickState?
    /// Seed for a new shuffle when there is nothing to resume (the shell draws it from the
    /// system's entropy; tests fix it).
    public var seed: UInt64

    /// `filesOnStick` defaults to `tracks` (a stick whose every file is loaded).
    public init(id: StickID, tracks: [TrackPath], filesOnStick: [TrackPath]? = nil, saved: StickState? = nil, seed: UInt64) {
        self.id = id
        self.tracks = tracks
        self.filesOnStick = filesOnStick ?? tracks
        self.saved = saved
        self.seed = seed
    }
}

/// A request to change the volume.
public enum VolumeChange: Hashable, Sendable {
    case up
    case down
    case set(Int)
}
