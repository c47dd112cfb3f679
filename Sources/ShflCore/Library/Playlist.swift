/// The stick's playlist (`shfl.m3u` or `shfl.m3u8` at its root, SPEC §2) split into entries.
///
/// Standard M3U: an optional UTF-8 byte order mark; lines end in LF, CRLF or a lone CR; blank
/// lines and lines starting with "#" (`#EXTM3U`, `#EXTINF:...`, comments) are ignored; spaces
/// and tabs around an entry are trimmed (so a file whose name starts with "#" must be written
/// "./#name.mp3", as in every M3U player). Entries are kept as raw bytes (names need not be valid
/// UTF-8); `TrackPath(playlistEntry:)` interprets one and `Library.select(playlist:from:)`
/// resolves them against the stick. Parsing never fails: whatever a line says is judged there.
///
/// The caller reads the file; it should cap the bytes it reads (a hostile stick may hold a
/// huge file), and prefer `shfl.m3u8` when both names exist (see `fileNames`).
public struct Playlist: Hashable, Sendable, CustomStringConvertible {
    /// One entry: a line that is neither blank nor a comment.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// 1-based line number in the file, as an editor shows it.
        public var line: Int
        /// The line's bytes without the line end and surrounding spaces and tabs.
        public var text: [UInt8]

        public init(line: Int, text: [UInt8]) {
            self.line = line
            self.text = text
        }

        /// At most this many bytes of an entry are shown in a note.
        public static let shownLimit = 200

        /// The entry for a log line: invalid UTF-8 as U+FFFD, control characters as "?", cut to
        /// `shownLimit` bytes with "…" so a hostile line cannot flood the log.
        public var shownText: String {
            if text.count <= Entry.shownLimit { return TrackPath(bytes: text).description }
            return TrackPath(bytes: Array(text[..<Entry.shownLimit])).description + "…"
        }

        /// "line 7: Music/x.mp3".
        public var description: String {
            "line " + String(line) + ": " + shownText
        }
    }

    /// The playlist file names Shfl looks for at the stick's root, in order of preference
    /// (any ASCII letter case matches, as FAT ignores case).
    public static let fileNames: [String] = ["shfl.m3u8", "shfl.m3u"]

    /// True when `path` (relative to the stick's root) is one of `fileNames`, in any letter case.
    public static func isPlaylistFile(_ path: TrackPath) -> Bool {
        let folded = path.caseFolded
        return fileNames.contains { TrackPath($0) == folded }
    }

    /// The file's name as notes show it, e.g. "shfl.m3u".
    public var name: String
    /// The entries in file order.
    public var entries: [Entry]

    public init(name: String, entries: [Entry]) {
        self.name = name
        self.entries = entries
    }

    /// Parses the file's bytes.
    public init(name: String, contents: [UInt8]) {
        self.name = name
        self.entries = []

        let lf = UInt8(ascii: "\n")
        let cr = UInt8(ascii: "\r")
        var index = 0
        if contents.count >= 3 && contents[0] == 0xEF && contents[1] == 0xBB && contents[2] == 0xBF {
            index = 3
        }
        var line = 1
        var lineStart = index
        while index <= contents.count {
            let atEnd = index == contents.count
            if atEnd || contents[index] == lf || contents[index] == cr {
                appendEntry(contents[lineStart..<index], line: line)
                if atEnd { break }
                if contents[index] == cr && index + 1 < contents.count && contents[index + 1] == lf {
                    index += 1
                }
                index += 1
                line += 1
                lineStart = index
            } else {
                index += 1
            }
        }
    }

    /// "shfl.m3u (12 entries)".
    public var description: String {
        name + " (" + String(entries.count) + (entries.count == 1 ? " entry)" : " entries)")
    }

    private mutating func appendEntry(_ raw: ArraySlice<UInt8>, line: Int) {
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = raw.firstIndex(where: { !isBlank($0) }),
              let last = raw.lastIndex(where: { !isBlank($0) })
        else { return }
        if raw[first] == UInt8(ascii: "#") { return }
        entries.append(Entry(line: line, text: Array(raw[first...last])))
    }
}
