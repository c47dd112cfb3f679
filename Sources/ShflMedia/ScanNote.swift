import ShflCore

/// One entry a scan left out, and why: a line for `shfl scan` and the log.
public struct ScanNote: Hashable, Sendable, CustomStringConvertible {
    /// The entry's path relative to the stick's root ("" for the root itself).
    public var path: TrackPath
    public var skip: ScanSkip
    /// The reason in words: "symbolic link, not followed", "FIFO, not a regular file",
    /// "cannot open the folder: EACCES (Permission denied)".
    public var reason: String

    public init(path: TrackPath, skip: ScanSkip, reason: String) {
        self.path = path
        self.skip = skip
        self.reason = reason
    }

    /// `"Music/link.mp3": symbolic link, not followed`.
    public var description: String {
        "\"" + (path.bytes.isEmpty ? "." : path.description) + "\": " + reason
    }
}
