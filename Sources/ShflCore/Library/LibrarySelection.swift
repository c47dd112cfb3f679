/// The tracks chosen from a stick, how they were chosen, and what was left out and why.
///
/// The result of `Library.select`. The tracks are in path order when a policy chose them
/// (playing order is the shuffle's job) and in the playlist's order when a playlist did.
public struct LibrarySelection: Hashable, Sendable, CustomStringConvertible {
    /// The chosen tracks, at most `capacity`, each once.
    public var tracks: [TrackPath]
    /// The number of distinct MP3 files the scanner found on the stick.
    public var candidateCount: Int
    /// The most tracks that could have been chosen (normally `Library.capacity`).
    public var capacity: Int
    /// The policy or playlist that chose.
    public var source: LibrarySource
    /// Everything skipped or left out, in playlist line order, summaries last.
    public var notes: [LibraryNote]

    public init(
        tracks: [TrackPath],
        candidateCount: Int,
        capacity: Int = Library.capacity,
        source: LibrarySource,
        notes: [LibraryNote] = []
    ) {
        self.tracks = tracks
        self.candidateCount = candidateCount
        self.capacity = capacity
        self.source = source
        self.notes = notes
    }

    /// Loaded tracks over capacity, e.g. "47/120", as the CLI shows it (SPEC §2).
    public var capacityDescription: String {
        String(tracks.count) + "/" + String(capacity)
    }

    /// E.g. "47/120 tracks by policy alphabetical from 47 MP3 files on the stick, 0 notes".
    public var description: String {
        capacityDescription + " tracks by " + source.description + " from " + String(candidateCount)
            + " MP3 files on the stick, " + String(notes.count) + (notes.count == 1 ? " note" : " notes")
    }
}
