extension Library {
    /// Picks the tracks `playlist` lists, resolved against the MP3 files on the stick: the first
    /// `capacity` playable entries, in playlist order (the user chose it; the shuffle still
    /// decides the playing order).
    ///
    /// Each entry is read with `TrackPath(playlistEntry:)`, must end in ".mp3", and is looked up
    /// among `candidates`: exact bytes first, else ignoring ASCII letter case (FAT sticks
    /// ignore it; if several files differ only in case, the first in path order wins), else,
    /// for an entry that is not valid UTF-8, re-read as Windows-1252 (`windows1252AsUTF8`).
    /// An entry naming a track already chosen is a duplicate. Every skipped entry gets a
    /// `.playlistEntrySkipped` note (up to `maximumEntryNotes`, then one summary); entries after
    /// the playlist filled `capacity` get one `.playlistBeyondCapacity` note.
    ///
    /// An empty or all-invalid playlist gives zero tracks and a `.playlistHasNoTracks` note.
    /// What to do then (load nothing, or fall back to the policy with `select(from:...)`) is the
    /// caller's decision; log the notes either way.
    public static func select(
        playlist: Playlist,
        from candidates: [LibraryCandidate],
        capacity: Int = Library.capacity
    ) -> LibrarySelection {
        let limit = max(0, capacity)
        let files = uniqueInPathOrder(candidates)
        var tracks: [TrackPath] = []
        // The line that chose each file (by index in `files`), nil while none did.
        var firstLine = [Int?](repeating: nil, count: files.count)
        var notes: [LibraryNote] = []
        var unlistedSkips = 0
        var next = 0
        while next < playlist.entries.count && tracks.count < limit {
            let entry = playlist.entries[next]
            next += 1
            do throws(PlaylistEntryProblem) {
                let index = try resolve(entry.text, in: files)
                if let line = firstLine[index] { throw .duplicate(firstLine: line) }
                firstLine[index] = entry.line
                tracks.append(files[index].path)
            } catch {
                if notes.count < maximumEntryNotes {
                    notes.append(.playlistEntrySkipped(
                        playlist: playlist.name, line: entry.line, entry: entry.shownText, problem: error
                    ))
                } else {
                    unlistedSkips += 1
                }
            }
        }

        if unlistedSkips > 0 {
            notes.append(.playlistFurtherSkips(playlist: playlist.name, count: unlistedSkips))
        }
        if next < playlist.entries.count {
            notes.append(.playlistBeyondCapacity(
                playlist: playlist.name,
                fromLine: playlist.entries[next].line,
                entries: playlist.entries.count - next,
                capacity: limit
            ))
        }
        if tracks.isEmpty {
            notes.append(.playlistHasNoTracks(playlist: playlist.name))
        }

        return LibrarySelection(
            tracks: tracks,
            candidateCount: files.count,
            capacity: limit,
            source: .playlist(name: playlist.name),
            notes: notes
        )
    }

    /// The index in `files` (unique, in path order) of the file one entry names, or why there
    /// is none (duplicates aside).
    private static func resolve(
        _ text: [UInt8],
        in files: [LibraryCandidate]
    ) throws(PlaylistEntryProblem) -> Int {
        let path = try TrackPath(playlistEntry: text)
        guard path.hasMP3Extension else { throw .notMP3 }
        var spellings = [path]
        if let transcoded = path.windows1252AsUTF8 { spellings.append(transcoded) }
        for spelling in spellings {
            let exact = firstIndex(in: files) { $0 < spelling }
            if exact < files.count && files[exact].path == spelling { return exact }
            // Path order sorts by the case-folded bytes first, so the case variants of a name
            // are adjacent and the first of them in path order is found here.
            let folded = firstIndex(in: files) { foldedPrecedes($0, spelling) }
            if folded < files.count && !foldedPrecedes(spelling, files[folded].path) { return folded }
        }
        throw .notFound
    }

    /// True when `left` sorts before `right` ignoring ASCII letter case (the first key of
    /// path order).
    private static func foldedPrecedes(_ left: TrackPath, _ right: TrackPath) -> Bool {
        left.bytes.lexicographicallyPrecedes(right.bytes) { TrackPath.foldCase($0) < TrackPath.foldCase($1) }
    }
}
