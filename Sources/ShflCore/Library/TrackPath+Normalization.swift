extension TrackPath {
    /// The track path one playlist entry names, relative to the stick's root.
    ///
    /// `text` is the entry as written, already trimmed (see `Playlist`). Both "/" and "\"
    /// separate components (playlists made on Windows use "\"); a leading separator means the
    /// stick's root; empty and "." components are dropped and "a/../b" becomes "b". The bytes of
    /// each component are kept as they are (names need not be valid UTF-8).
    ///
    /// Throws `.url` for `scheme://...`, `.drivePath` for `C:...` and `\\server\...`,
    /// `.escapesRoot` when ".." leads above the root, and `.notAFile` when the entry ends in a
    /// separator or names the root itself. It does not check the extension or the stick.
    public init(playlistEntry text: [UInt8]) throws(PlaylistEntryProblem) {
        let slash = UInt8(ascii: "/")
        let backslash = UInt8(ascii: "\\")
        let dot = UInt8(ascii: ".")
        if TrackPath.isURL(text) { throw .url }
        if TrackPath.isWindowsDriveOrNetworkPath(text) { throw .drivePath }
        if let last = text.last, last == slash || last == backslash { throw .notAFile }

        var kept: [ArraySlice<UInt8>] = []
        let components = text.split(omittingEmptySubsequences: true) { $0 == slash || $0 == backslash }
        for component in components {
            if component.count == 1 && component.first == dot { continue }
            if component.count == 2 && component.allSatisfy({ $0 == dot }) {
                if kept.isEmpty { throw .escapesRoot }
                kept.removeLast()
                continue
            }
            kept.append(component)
        }
        if kept.isEmpty { throw .notAFile }

        var joined: [UInt8] = []
        for component in kept {
            if !joined.isEmpty { joined.append(slash) }
            joined.append(contentsOf: component)
        }
        self.init(bytes: joined)
    }

    /// True for `scheme://...`, where the scheme is a letter followed by at least one more
    /// letter, digit, "+", "-" or "." (RFC 3986; one letter alone is a Windows drive).
    static func isURL(_ text: [UInt8]) -> Bool {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon >= 2,
              text.count >= colon + 3,
              text[colon + 1] == UInt8(ascii: "/"), text[colon + 2] == UInt8(ascii: "/"),
              isASCIILetter(text[0])
        else { return false }
        return text[1..<colon].allSatisfy { byte in
            isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// True for `C:`, `C:\...`, `C:/...`, `C:name` (drive-relative) and `\\server\share`.
    static func isWindowsDriveOrNetworkPath(_ text: [UInt8]) -> Bool {
        guard text.count >= 2 else { return false }
        if isASCIILetter(text[0]) && text[1] == UInt8(ascii: ":") { return true }
        return text[0] == UInt8(ascii: "\\") && text[1] == UInt8(ascii: "\\")
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        let folded = foldCase(byte)
        return folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
    }
}
