import ShflCore

/// What a `StickScanner` found on a stick: the MP3 files (the candidates for the 120), the
/// playlist if there is one, and everything it left out and why.
public struct StickScan: Sendable {
    /// The limit that cut a scan short: the walk stopped before it had seen everything
    /// (entries, time), or it left out what did not fit (folders, tracks).
    public enum Stop: Hashable, Sendable, CustomStringConvertible {
        case entryLimit(Int)
        case timeLimit(Duration)
        /// `limit` folders entered; `leftOut` more (the deepest, then the last in path order)
        /// were not.
        case folderLimit(Int, leftOut: Int)
        /// `limit` MP3 files kept (the first in path order); `leftOut` more were found.
        case trackLimit(Int, leftOut: Int)

        public var description: String {
            switch self {
            case .entryLimit(let count): "stopped after " + String(count) + " entries (the limit); the rest of the stick was not looked at"
            case .timeLimit(let limit): "stopped after " + limit.millisecondsDescription + " (the time limit); the rest of the stick was not looked at"
            case .folderLimit(let limit, let leftOut):
                "entered " + String(limit) + " folders (the limit), the shallowest first; " + String(leftOut)
                    + (leftOut == 1 ? " more was" : " more were") + " not looked at"
            case .trackLimit(let limit, let leftOut):
                "kept " + String(limit) + " MP3 files (the limit), the first in path order; " + String(leftOut)
                    + (leftOut == 1 ? " more was" : " more were") + " left out"
            }
        }
    }

    /// The directory scanned.
    public var root: FilePath
    /// The MP3 files, at most `ScanLimits.maximumTracks` (the first in path order), in no
    /// particular order (the selection sorts them).
    public var candidates: [LibraryCandidate] = []
    /// The root's `shfl.m3u8` or `shfl.m3u`, parsed, if there is a usable one.
    public var playlist: Playlist?
    /// Entries left out, one by one for the kinds `ScanSkip.isNotedSingly`, at most
    /// `ScanLimits.maximumNotes` (the rest are in `skipCounts` only).
    public var notes: [ScanNote] = []
    /// Every entry left out, by kind.
    public var skipCounts: [ScanSkip: Int] = [:]
    /// Directory entries looked at, and folders entered (the root included).
    public var entriesVisited = 0
    public var foldersVisited = 0
    /// The walk's stop if it stopped, else the folder limit if it left folders out, else the
    /// track limit if it left MP3 files out; nil when everything was looked at and kept.
    public var stop: Stop?
    public var elapsed: Duration = .zero

    public init(root: FilePath) {
        self.root = root
    }

    /// Skipped entries noted or counted beyond `notes`.
    public var unlistedNotes: Int {
        var noted = 0
        for (skip, count) in skipCounts where skip.isNotedSingly { noted += count }
        return noted - notes.count
    }

    /// Chooses the tracks to load: the playlist's when it names at least one MP3 file found,
    /// otherwise `policy`'s (after a playlist gave nothing, its notes come first, ending with
    /// "no playable entry", and the source says which policy chose). The tracks are in path
    /// order, as `LoadedStick` wants them.
    public func selection(
        policy: SelectionPolicy, history: [TrackPath: PlayRecord] = [:], seed: UInt64 = 0,
        capacity: Int = Library.capacity
    ) -> LibrarySelection {
        var notes: [LibraryNote] = []
        if let playlist {
            var chosen = Library.select(playlist: playlist, from: candidates, capacity: capacity)
            if !chosen.tracks.isEmpty {
                chosen.tracks.sort()
                return chosen
            }
            notes = chosen.notes
        }
        var chosen = Library.select(from: candidates, policy: policy, history: history, seed: seed, capacity: capacity)
        chosen.notes = notes + chosen.notes
        return chosen
    }

    /// One line with the counts: "1234 entries in 87 folders, 250 ms; skipped: 3 hidden
    /// entries, 1 symbolic link".
    public var summary: String {
        var line = String(entriesVisited) + (entriesVisited == 1 ? " entry" : " entries") + " in "
            + String(foldersVisited) + (foldersVisited == 1 ? " folder, " : " folders, ")
            + String(candidates.count) + " MP3, " + elapsed.millisecondsDescription
        var skipped = ""
        for skip in ScanSkip.allCases {
            guard let count = skipCounts[skip], count > 0 else { continue }
            skipped += (skipped.isEmpty ? "" : ", ") + skip.counted(count)
        }
        line += skipped.isEmpty ? "; nothing skipped" : "; skipped: " + skipped
        return line
    }

    /// Counts `count` skipped entries of a kind never noted singly.
    mutating func count(_ skip: ScanSkip, _ count: Int) {
        guard count > 0 else { return }
        skipCounts[skip, default: 0] += count
    }

    /// Records one skipped entry.
    mutating func skip(_ skip: ScanSkip, _ path: TrackPath, _ reason: String, limit: Int) {
        skipCounts[skip, default: 0] += 1
        if skip.isNotedSingly && notes.count < limit {
            notes.append(ScanNote(path: path, skip: skip, reason: reason))
        }
    }
}
