/// Why one playlist entry was not loaded. Each case's `description` tells the user what is
/// wrong in words that suggest the fix; `LibraryNote.playlistEntrySkipped` adds where.
public enum PlaylistEntryProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// No MP3 file on the stick has this path, even ignoring ASCII letter case.
    case notFound
    /// The entry does not name a ".mp3" file; Shfl plays only MP3.
    case notMP3
    /// The entry is a URL (`scheme://...`); Shfl plays only files on the stick.
    case url
    /// The entry is a Windows drive path (`C:\...`) or network path (`\\server\...`), which
    /// cannot be found on the stick; paths must be relative to the stick's root.
    case drivePath
    /// The entry's ".." components lead above the stick's root.
    case escapesRoot
    /// The entry names a folder (ends in "/" or normalises to nothing), not a file.
    case notAFile
    /// The entry names a track already listed on `firstLine` (possibly spelled differently).
    case duplicate(firstLine: Int)

    public var description: String {
        switch self {
        case .notFound: "not found on the stick"
        case .notMP3: "not an MP3 file (only .mp3 files are played)"
        case .url: "a URL; only files on the stick can be played"
        case .drivePath: "a Windows drive or network path; write paths relative to the stick's root"
        case .escapesRoot: "\"..\" leads out of the stick's root"
        case .notAFile: "names a folder, not a file"
        case .duplicate(let firstLine): "listed twice (first on line " + String(firstLine) + ")"
        }
    }
}
