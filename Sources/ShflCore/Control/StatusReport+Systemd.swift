extension StatusReport {
    /// The longest STATUS text, in UTF-8 bytes (systemctl status shows one line).
    public static let maximumSystemdStatusBytes = 200

    /// The systemd `STATUS=` text for this state (issue 6): "Playing 12/120: Title — Artist",
    /// "Paused 12/120: …", "Stopped 12/120: …", "Loading 12/120: …", "No stick",
    /// "Error: <reason>". One printable line, at most `maximumSystemdStatusBytes`.
    public var systemdStatus: String {
        let text: String
        switch state {
        case .empty: text = "No stick"
        case .error(let failure): text = "Error: " + failure.description
        case .stopped: text = withTrack("Stopped")
        case .loading: text = withTrack("Loading")
        case .playing: text = withTrack("Playing")
        case .paused: text = withTrack("Paused")
        }
        return ControlText.oneLine(text, maximumBytes: StatusReport.maximumSystemdStatusBytes)
    }

    private func withTrack(_ verb: String) -> String {
        var text = verb
        if let trackNumber { text += " " + String(trackNumber) + "/" + String(trackCount) }
        if let trackName { text += ": " + trackName }
        return text
    }
}
