/// What `shfl status` shows, filled by the event loop from the player and the audio thread:
/// state, track ("Title — Artist", or the file name), position "m:ss", place in the shuffle
/// "12/47", library "47/120", volume, underrun count, stick. Renders as reply fields
/// (`fields`) and as the systemd STATUS line (`systemdStatus`).
public struct StatusReport: Hashable, Sendable {
    public var state: PlaybackState
    /// The current track (for `.stopped` too: the one PLAY will start), nil without one.
    public var track: TrackPath?
    /// The track's tags, when the decoder found them.
    public var title: String?
    public var artist: String?
    /// The current track's place in the shuffle order, from 1.
    public var trackNumber: Int?
    /// How many tracks are loaded.
    public var trackCount: Int
    public var position: Duration
    public var volume: Int
    /// Underruns the audio device has had since the daemon started.
    public var underruns: Int
    public var stick: StickID?
    /// The stick's file-system label ("MUSIC"), when it has one.
    public var stickLabel: String?

    public init(
        state: PlaybackState, track: TrackPath? = nil, title: String? = nil, artist: String? = nil,
        trackNumber: Int? = nil, trackCount: Int = 0, position: Duration = .zero, volume: Int,
        underruns: Int = 0, stick: StickID? = nil, stickLabel: String? = nil
    ) {
        self.state = state
        self.track = track
        self.title = title
        self.artist = artist
        self.trackNumber = trackNumber
        self.trackCount = trackCount
        self.position = position
        self.volume = volume
        self.underruns = underruns
        self.stick = stick
        self.stickLabel = stickLabel
    }

    /// The report of `player`; the tags, the underrun count and the stick's label come from
    /// elsewhere (the decoder, the audio thread, the media monitor).
    public init(player: Player, title: String? = nil, artist: String? = nil, underruns: Int = 0, stickLabel: String? = nil) {
        let hasTrack: Bool
        switch player.state {
        case .stopped, .loading, .playing, .paused: hasTrack = true
        case .empty, .error: hasTrack = false
        }
        let track = hasTrack ? player.state.track ?? player.currentTrack : nil
        self.init(
            state: player.state,
            track: track,
            title: track == nil ? nil : title,
            artist: track == nil ? nil : artist,
            trackNumber: track == nil ? nil : player.shuffle.cursor + 1,
            trackCount: player.tracks.count,
            position: track == nil ? .zero : player.position,
            volume: player.volume,
            underruns: underruns,
            stick: player.stick,
            stickLabel: player.stick == nil ? nil : stickLabel
        )
    }

    /// "Title — Artist", "Title" without an artist, or the file name without a title.
    public var trackName: String? {
        guard let track else { return nil }
        if let title = StatusReport.nonEmpty(title) {
            if let artist = StatusReport.nonEmpty(artist) { return title + " \u{2014} " + artist }
            return title
        }
        return track.fileName.description
    }

    /// "47/120": loaded tracks of the library's capacity.
    public var capacityDescription: String {
        String(trackCount) + "/" + String(Library.capacity)
    }

    /// "MUSIC (1A2B-3C4D)", or the UUID alone without a label; nil without a stick.
    public var stickDescription: String? {
        guard let stick else { return nil }
        if let label = StatusReport.nonEmpty(stickLabel) { return label + " (" + stick.uuid + ")" }
        return stick.uuid
    }

    /// The reply fields of `status`, in this order: state, reason (error only), track,
    /// position, shuffle ("12/47"), tracks ("47/120"), stick ("none" without one), volume,
    /// underruns. Lines about a track appear only when there is one.
    public var fields: [ControlReply.Field] {
        var fields = [ControlReply.Field("state", state.name)]
        if case .error(let failure) = state { fields.append(ControlReply.Field("reason", failure.description)) }
        if let trackName {
            fields.append(ControlReply.Field("track", trackName))
            fields.append(ControlReply.Field("position", StatusReport.minutesAndSeconds(position)))
            if let trackNumber { fields.append(ControlReply.Field("shuffle", String(trackNumber) + "/" + String(trackCount))) }
        }
        if stick != nil { fields.append(ControlReply.Field("tracks", capacityDescription)) }
        fields.append(ControlReply.Field("stick", stickDescription ?? "none"))
        fields.append(ControlReply.Field("volume", String(volume)))
        fields.append(ControlReply.Field("underruns", String(underruns)))
        return fields
    }

    /// The reply to `status`.
    public var reply: ControlReply { ControlReply(fields: fields) }

    /// The reply to `capacity`: "tracks: 47/120" (with a stick), then the stick.
    public var capacityReply: ControlReply {
        var fields: [ControlReply.Field] = []
        if stick != nil { fields.append(ControlReply.Field("tracks", capacityDescription)) }
        fields.append(ControlReply.Field("stick", stickDescription ?? "none"))
        return ControlReply(fields: fields)
    }

    /// "m:ss" (minutes not capped: "75:02"); negative durations show as "0:00".
    public static func minutesAndSeconds(_ duration: Duration) -> String {
        let seconds = max(duration.components.seconds, 0)
        let remainder = seconds % 60
        return String(seconds / 60) + ":" + (remainder < 10 ? "0" : "") + String(remainder)
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, text.unicodeScalars.contains(where: { $0 != " " }) else { return nil }
        return text
    }
}
