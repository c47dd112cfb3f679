/// A track's identity: its path relative to the stick's root, as the raw bytes the filesystem
/// gave (names need not be valid UTF-8), components separated by "/", no leading "/".
///
/// Ordered by "path order": ASCII case-insensitive byte comparison, ties broken by the exact
/// bytes, so "b.mp3" sorts after "A.mp3" and the order never depends on the locale.
public struct TrackPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The path for people: invalid UTF-8 is shown as U+FFFD, control characters as "?".
    public var description: String {
        var shown = bytes
        for index in shown.indices where shown[index] < 0x20 || shown[index] == 0x7F {
            shown[index] = UInt8(ascii: "?")
        }
        return String(decoding: shown, as: UTF8.self)
    }

    /// The last component, e.g. "song.mp3" for "Album/song.mp3".
    public var fileName: TrackPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return self }
        return TrackPath(bytes: Array(bytes[(slash + 1)...]))
    }

    /// True when the name ends in ".mp3", in any letter case.
    public var hasMP3Extension: Bool {
        let suffix: [UInt8] = Array(".mp3".utf8)
        guard bytes.count > suffix.count else { return false }
        let tail = bytes[(bytes.count - suffix.count)...]
        return zip(tail, suffix).allSatisfy { TrackPath.foldCase($0) == $1 }
    }

    /// The same path with ASCII letters lower-cased (for case-insensitive matching, as on FAT).
    public var caseFolded: TrackPath {
        TrackPath(bytes: bytes.map(TrackPath.foldCase))
    }

    public static func < (lhs: TrackPath, rhs: TrackPath) -> Bool {
        var index = 0
        while index < lhs.bytes.count && index < rhs.bytes.count {
            let left = foldCase(lhs.bytes[index])
            let right = foldCase(rhs.bytes[index])
            if left != right { return left < right }
            index += 1
        }
        if lhs.bytes.count != rhs.bytes.count { return lhs.bytes.count < rhs.bytes.count }
        return lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    static func foldCase(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte + 32 : byte
    }
}

/// An absolute path on the device (e.g. a mounted stick's track), as bytes.
public struct FilePath: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// `root` + "/" + `track`.
    public func appending(_ track: TrackPath) -> FilePath {
        var joined = bytes
        if joined.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
        joined.append(contentsOf: track.bytes)
        return FilePath(bytes: joined)
    }

    public var description: String {
        TrackPath(bytes: bytes).description
    }
}
