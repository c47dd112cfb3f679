/// Why a `StickScanner` left an entry out. Each kind is counted; the unusual ones are also
/// noted one by one (`isNotedSingly`), so `shfl scan` and the log name the path.
public enum ScanSkip: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The name starts with "." (".Trashes", "._song.mp3", ".hidden/"): hidden by convention.
    case hidden
    /// "System Volume Information", "$RECYCLE.BIN", "RECYCLER": what Windows keeps on a stick
    /// (deleted files must not play).
    case systemFolder
    /// A regular file whose name does not end in ".mp3" (any letter case).
    case notMP3
    /// A symbolic link: never followed, so nothing outside the stick is reached.
    case symbolicLink
    /// A FIFO, device node or socket: never opened (a FIFO would block the reader).
    case notRegularFile
    /// A folder nested deeper than `ScanLimits.maximumDepth`; nothing in it is looked at.
    case tooDeep
    /// A folder beyond `ScanLimits.maximumFolders` (the deepest, then the last in path order);
    /// nothing in it is looked at.
    case folderLimit
    /// An MP3 file beyond `ScanLimits.maximumTracks` (the last in path order): found, not kept.
    case trackLimit
    /// A folder on another file system (something is mounted inside the stick).
    case otherFileSystem
    /// A folder or file the system would not read or describe (permissions, I/O error).
    case unreadable
    /// The playlist file could not be used, or only partly.
    case playlist

    /// Whether each skip of this kind gets its own note (the common, harmless kinds are only
    /// counted).
    public var isNotedSingly: Bool {
        switch self {
        case .hidden, .systemFolder, .notMP3, .trackLimit: false
        case .symbolicLink, .notRegularFile, .tooDeep, .folderLimit, .otherFileSystem, .unreadable, .playlist: true
        }
    }

    /// The count for a summary line: "3 hidden entries", "1 symbolic link".
    public func counted(_ count: Int) -> String {
        let one = count == 1
        let noun: String
        switch self {
        case .hidden: noun = one ? "hidden entry" : "hidden entries"
        case .systemFolder: noun = one ? "system folder" : "system folders"
        case .notMP3: noun = one ? "file not MP3" : "files not MP3"
        case .symbolicLink: noun = one ? "symbolic link" : "symbolic links"
        case .notRegularFile: noun = one ? "special file" : "special files"
        case .tooDeep: noun = one ? "folder too deep" : "folders too deep"
        case .folderLimit: noun = one ? "folder over the folder limit" : "folders over the folder limit"
        case .trackLimit: noun = one ? "MP3 file over the track limit" : "MP3 files over the track limit"
        case .otherFileSystem: noun = one ? "folder on another file system" : "folders on other file systems"
        case .unreadable: noun = one ? "unreadable entry" : "unreadable entries"
        case .playlist: noun = one ? "playlist problem" : "playlist problems"
        }
        return String(count) + " " + noun
    }

    public var description: String { counted(1) }
}
