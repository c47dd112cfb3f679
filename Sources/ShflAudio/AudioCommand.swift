import ShflCore

/// What the event loop asks of the audio thread (`AudioEngine.send(_:)`).
public enum AudioCommand: Sendable {
    /// Cut whatever plays (within one period) and play `path` from `position`; reports about
    /// it carry `ticket`.
    case play(FilePath, from: Duration, ticket: Int)
    case pause
    case resume
    /// Cut playback and close the track.
    case stop
    /// Software volume, 0...100 (100 = the decoded samples unchanged).
    case setVolume(Int)
}

/// What the audio thread tells the event loop (`AudioEngine.takeReports()`).
public enum AudioReport: Sendable, Equatable {
    /// The first frame of the track went to the device.
    case started(ticket: Int, TrackInfo)
    /// The track has played up to `position` (four times a second of audio, and at pause).
    case progress(ticket: Int, position: Duration)
    /// The track played to its end.
    case finished(ticket: Int)
    /// The track could not be opened or decoded.
    case failed(ticket: Int, reason: String)
    /// The device failed; the engine retries with back-off (the message names the device).
    case deviceFailed(String)
    /// Underruns counted so far, when the count changed.
    case underruns(Int)
}
