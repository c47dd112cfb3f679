/// Chooses which of a stick's MP3 files to load (SPEC §2, "the 120"): by the configured
/// `SelectionPolicy`, or by the stick's playlist (`Library+Playlist.swift`). Pure: the scanner
/// walks the stick and reads the playlist; this only decides.
///
/// Every choice is deterministic and independent of the order the scanner found the files in:
/// ties are always broken by path order (`TrackPath`'s `<`), duplicates count once.
public enum Library {
    /// The most tracks loaded from one stick.
    public static let capacity = 120

    /// At most this many skipped playlist entries get a note each; the rest get one summary,
    /// so a hostile playlist cannot flood the log.
    public static let maximumEntryNotes = 100

    /// Picks at most `capacity` tracks from `candidates` by `policy`.
    ///
    /// - `alphabetical`: the first in path order.
    /// - `recentlyAdded`: the highest `modified`.
    /// - `mostPlayed`: the highest `history[path].playCount` (absent = 0).
    /// - `recentlyPlayed`: the highest `history[path].lastPlayed`; never played (absent or
    ///   `lastPlayed <= 0`) ranks below every played track.
    /// - `random`: a uniform random subset drawn with `SeededGenerator(seed:)`; the same seed
    ///   and the same set of files give the same subset.
    ///
    /// With at most `capacity` distinct files, all are chosen whatever the policy. `seed` is
    /// used by `random` only. Candidates listed twice count once, with the newest `modified`.
    /// The result's tracks are in path order; one `.overCapacity` note says how many were left.
    public static func select(
        from candidates: [LibraryCandidate],
        policy: SelectionPolicy = .default,
        history: [TrackPath: PlayRecord] = [:],
        seed: UInt64 = 0,
        capacity: Int = Library.capacity
    ) -> LibrarySelection {
        let limit = max(0, capacity)
        let files = uniqueInPathOrder(candidates)
        var notes: [LibraryNote] = []
        var chosen: [TrackPath]

        if files.count <= limit {
            chosen = files.map { $0.path }
        } else {
            notes.append(.overCapacity(files: files.count, capacity: limit, policy: policy))
            switch policy {
            case .alphabetical:
                chosen = files[..<limit].map { $0.path }
            case .recentlyAdded:
                chosen = highestRanked(files, limit: limit) { $0.modified }
            case .mostPlayed:
                chosen = highestRanked(files, limit: limit) { file in
                    Int64(history[file.path]?.playCount ?? 0)
                }
            case .recentlyPlayed:
                chosen = highestRanked(files, limit: limit) { file in
                    guard let last = history[file.path]?.lastPlayed, last > 0 else { return Int64.min }
                    return last
                }
            case .random:
                chosen = randomSubset(files, limit: limit, seed: seed)
            }
            chosen.sort()
        }

        return LibrarySelection(
            tracks: chosen,
            candidateCount: files.count,
            capacity: limit,
            source: .policy(policy),
            notes: notes
        )
    }

    /// The candidates with duplicate paths merged (keeping the newest `modified`), sorted in
    /// path order.
    ///
    /// Sorting, not a `Dictionary`: the result is needed in path order anyway, and the sorted
    /// array serves the playlist's lookups by binary search.
    static func uniqueInPathOrder(_ candidates: [LibraryCandidate]) -> [LibraryCandidate] {
        let sorted = candidates.sorted { left, right in
            left.path != right.path ? left.path < right.path : left.modified > right.modified
        }
        var unique: [LibraryCandidate] = []
        unique.reserveCapacity(sorted.count)
        for candidate in sorted where unique.last?.path != candidate.path {
            unique.append(candidate)
        }
        return unique
    }

    /// The first index in `files` (in path order) whose path is not `isBefore`, by binary
    /// search; `isBefore` must be true for a prefix of `files` and false after it.
    static func firstIndex(
        in files: [LibraryCandidate],
        notBefore isBefore: (TrackPath) -> Bool
    ) -> Int {
        var low = 0
        var high = files.count
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(files[middle].path) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The `limit` files with the highest `rank`; among equal ranks the earlier in `files`
    /// (which is in path order) wins.
    private static func highestRanked(
        _ files: [LibraryCandidate],
        limit: Int,
        rank: (LibraryCandidate) -> Int64
    ) -> [TrackPath] {
        var ranked: [(rank: Int64, index: Int)] = []
        ranked.reserveCapacity(files.count)
        for index in files.indices {
            ranked.append((rank(files[index]), index))
        }
        ranked.sort { $0.rank != $1.rank ? $0.rank > $1.rank : $0.index < $1.index }
        return ranked[..<limit].map { files[$0.index].path }
    }

    /// A uniform random `limit`-subset: the first `limit` steps of a Fisher–Yates shuffle of
    /// `files` (in path order, so input order cannot matter) driven by `SeededGenerator`.
    private static func randomSubset(_ files: [LibraryCandidate], limit: Int, seed: UInt64) -> [TrackPath] {
        var paths = files.map { $0.path }
        var generator = SeededGenerator(seed: seed)
        for index in 0..<limit {
            let pick = index + generator.next(below: paths.count - index)
            paths.swapAt(index, pick)
        }
        return Array(paths[..<limit])
    }
}
