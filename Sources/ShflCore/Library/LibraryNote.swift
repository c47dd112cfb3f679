/// Something the user should know about how a stick's tracks were chosen: an entry that was
/// skipped, or tracks left out for capacity. Each note's `description` is one log line that
/// names the file, line and entry concerned and the reason, in words that suggest the fix.
public enum LibraryNote: Hashable, Sendable, CustomStringConvertible {
    /// One playlist line was not loaded. `entry` is the line as written (trimmed), made safe
    /// for display (see `Playlist.Entry.shownText`).
    case playlistEntrySkipped(playlist: String, line: Int, entry: String, problem: PlaylistEntryProblem)
    /// The playlist had `capacity` playable entries before `fromLine`; the `entries` entries
    /// from there on were not looked at. One note for all of them.
    case playlistBeyondCapacity(playlist: String, fromLine: Int, entries: Int, capacity: Int)
    /// More entries were skipped than `Library.maximumEntryNotes` lists one by one.
    case playlistFurtherSkips(playlist: String, count: Int)
    /// The playlist gave no track at all (empty, only comments, or every entry skipped).
    case playlistHasNoTracks(playlist: String)
    /// The stick holds `files` MP3 files, more than `capacity`; `policy` chose which to load.
    case overCapacity(files: Int, capacity: Int, policy: SelectionPolicy)

    /// How loudly to log the note: a problem in the user's playlist is a warning; a policy
    /// doing its documented job is a notice.
    public var level: LogLevel {
        switch self {
        case .playlistEntrySkipped, .playlistBeyondCapacity, .playlistFurtherSkips, .playlistHasNoTracks:
            .warning
        case .overCapacity:
            .notice
        }
    }

    /// The note as a log line.
    public var logMessage: LogMessage {
        LogMessage(level, description)
    }

    /// E.g. `shfl.m3u line 7: "Music/x.mp3": not found on the stick`.
    public var description: String {
        switch self {
        case let .playlistEntrySkipped(playlist, line, entry, problem):
            return playlist + " line " + String(line) + ": \"" + entry + "\": " + problem.description
        case let .playlistBeyondCapacity(playlist, fromLine, entries, capacity):
            return playlist + " line " + String(fromLine) + " and later: " + String(entries)
                + (entries == 1 ? " entry" : " entries") + " not loaded: only the first "
                + String(capacity) + " playable entries are loaded"
        case let .playlistFurtherSkips(playlist, count):
            return playlist + ": " + String(count) + " more skipped "
                + (count == 1 ? "entry" : "entries") + " not listed one by one; fix the ones above first"
        case let .playlistHasNoTracks(playlist):
            return playlist + ": no playable entry; it names no MP3 file found on the stick"
        case let .overCapacity(files, capacity, policy):
            return String(files) + " MP3 files on the stick, " + String(files - capacity)
                + " not loaded: at most " + String(capacity) + " are loaded, chosen by policy "
                + policy.configName + " (list the tracks you want in shfl.m3u to choose yourself)"
        }
    }
}
