import ShflCore

/// How much work a `StickScanner` does at most on one stick (SPEC §2: a hostile or huge stick
/// cannot hang or exhaust the device). Config settings; the defaults suit a Pi Zero.
///
/// Each limit bounds one cost, and counts only what has that cost, so junk beside the music (a
/// photo backup of 100,000 pictures) uses up none of the limits that keep tracks:
/// - `maximumEntries`: the names looked at, junk included: the work of a scan. A name that is
///   not a folder or an MP3 file costs a suffix compare, and is not kept.
/// - `maximumFolders`: the folders entered, shallowest first: the folders waiting to be listed
///   keep their path in memory, and each one entered is opened and listed.
/// - `maximumTracks`: the MP3 files kept to choose from: the scan's memory (one path each).
/// - `maximumDepth`: the nesting walked.
/// - `timeLimit`: the wall clock (a slow or failing stick).
public struct ScanLimits: Hashable, Sendable, CustomStringConvertible {
    /// The most folders above a track: "1/2/.../8/song.mp3" is found with 8, anything in a
    /// folder nested deeper is not looked at.
    public var maximumDepth: Int
    /// The most directory entries looked at (files, folders, links, hidden or not); the walk
    /// stops there.
    public var maximumEntries: Int
    /// The most folders entered, the root included. The walk goes shallow before deep, and in
    /// path order within a depth, so the folders left out are the deepest, then the last.
    public var maximumFolders: Int
    /// The most MP3 files kept as candidates. Beyond it the walk goes on and keeps the first in
    /// path order (`TrackPath`'s `<`), whatever order it met them in.
    public var maximumTracks: Int
    /// The longest a scan runs; checked between system calls (a single call on a failing
    /// stick can take longer).
    public var timeLimit: Duration
    /// The most bytes read from the playlist file; the rest is ignored (with a note).
    public var maximumPlaylistBytes: Int
    /// The most skipped entries noted one by one; the rest are only counted.
    public var maximumNotes: Int

    public init(
        maximumDepth: Int = 8,
        maximumEntries: Int = 500_000,
        maximumFolders: Int = 10_000,
        maximumTracks: Int = 20_000,
        timeLimit: Duration = .seconds(2),
        maximumPlaylistBytes: Int = 1 << 20,
        maximumNotes: Int = 100
    ) {
        self.maximumDepth = max(0, maximumDepth)
        self.maximumEntries = max(0, maximumEntries)
        self.maximumFolders = max(1, maximumFolders)
        self.maximumTracks = max(0, maximumTracks)
        self.timeLimit = timeLimit
        self.maximumPlaylistBytes = max(0, maximumPlaylistBytes)
        self.maximumNotes = max(0, maximumNotes)
    }

    public static let standard = ScanLimits()

    /// "depth 8, 500000 entries, 10000 folders, 20000 tracks, 2000 ms".
    public var description: String {
        "depth " + String(maximumDepth) + ", " + String(maximumEntries) + " entries, "
            + String(maximumFolders) + " folders, " + String(maximumTracks) + " tracks, "
            + timeLimit.millisecondsDescription
    }
}
