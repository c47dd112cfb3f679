/// What the shell must do after `Player.handle(_:)`. The core decides; adapters act.
public enum PlayerEffect: Hashable, Sendable {
    /// Stop whatever plays, open `track` and play it from `position`. Audio-thread reports
    /// about this track must carry `ticket`; reports with an older ticket are ignored.
    case startTrack(TrackPath, from: Duration, ticket: Int)
    /// Hold playback, keeping the device open.
    case pauseAudio
    /// Continue after `pauseAudio`.
    case resumeAudio
    /// Stop playback and close the track.
    case stopAudio
    /// Apply this output volume (0...100).
    case setVolume(Int)
    /// Persist this state (atomically, through the `StateStore`).
    case save(StickState)
    /// Write this line to the log.
    case log(LogMessage)
}
