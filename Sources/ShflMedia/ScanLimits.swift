import ShflCore

/// How much work a `StickScanner` does at most on one stick (SPEC §2: a hostile or huge stick
/// cannot hang or exhaust the device). Config settings; the defaults suit a Pi Zero.
public struct ScanLimits: Hashable, Sendable, CustomStringConvertible {
    /// The most folders above a track: "1/2/.../8/song.mp3" is found with 8, anything in a
    /// folder nested deeper is not looked at.
    public var maximumDepth: Int
    /// The most directory entries looked at (files, folders, links, hidden or not).
    public var maximumEntries: Int
    /// The longest a scan runs; checked between system calls (a single call on a failing
    /// stick can take longer).
    public var timeLimit: Duration
    /// The most bytes read from the playlist file; the rest is ignored (with a note).
    public var maximumPlaylistBytes: Int
    /// The most skipped entries noted one by one; the rest are only counted.
    public var maximumNotes: Int

    public init(
        maximumDepth: Int = 8,
        maximumEntries: Int = 20_000,
        timeLimit: Duration = .seconds(2),
        maximumPlaylistBytes: Int = 1 << 20,
        maximumNotes: Int = 100
    ) {
        self.maximumDepth = max(0, maximumDepth)
        self.maximumEntries = max(0, maximumEntries)
        self.timeLimit = timeLimit
        self.maximumPlaylistBytes = max(0, maximumPlaylistBytes)
        self.maximumNotes = max(0, maximumNotes)
    }

    public static let standard = ScanLimits()

    /// "depth 8, 20000 entries, 2000 ms".
    public var description: String {
        "depth " + String(maximumDepth) + ", " + String(maximumEntries) + " entries, "
            + timeLimit.millisecondsDescription
    }
}
