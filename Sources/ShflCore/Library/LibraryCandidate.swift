/// An MP3 file the scanner found on a stick: the raw material `Library.select` chooses from.
///
/// The scanner passes only files whose name ends in ".mp3"; it may pass the same path more than
/// once (the selector keeps one, with the newest `modified`).
public struct LibraryCandidate: Hashable, Sendable, CustomStringConvertible {
    /// The file's path relative to the stick's root.
    public var path: TrackPath
    /// The file's modification time (`st_mtime`), in seconds since the Unix epoch. Only its
    /// order matters (the `recently-added` policy); it may be wrong if the PC's clock was.
    public var modified: Int64

    public init(path: TrackPath, modified: Int64 = 0) {
        self.path = path
        self.modified = modified
    }

    /// "Album/song.mp3 (mtime 1700000000)".
    public var description: String {
        path.description + " (mtime " + String(modified) + ")"
    }
}
