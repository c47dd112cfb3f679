import ShflCore
import Testing

/// Choosing a stick's tracks by its `shfl.m3u`: resolution against the files on the stick,
/// and the notes a user reads in the log for every entry that was not loaded.
@Suite struct LibraryPlaylistTests {
    static let stick = [
        "Album/a.mp3", "Album/b.mp3", "Album/Disc 1/c.mp3", "My Song.mp3", "d.mp3", "e.mp3", "Café.mp3", "Don’t.mp3",
    ]

    func select(
        _ bytes: [UInt8],
        files: [String] = LibraryPlaylistTests.stick,
        name: String = "shfl.m3u",
        capacity: Int = Library.capacity
    ) -> LibrarySelection {
        let candidates = files.map { LibraryCandidate(path: TrackPath($0)) }
        return Library.select(playlist: Playlist(name: name, contents: bytes), from: candidates, capacity: capacity)
    }

    func select(_ text: String, files: [String] = LibraryPlaylistTests.stick, capacity: Int = Library.capacity) -> LibrarySelection {
        select(Array(text.utf8), files: files, capacity: capacity)
    }

    @Test func tracksComeInPlaylistOrderWithTheStickSpelling() {
        let selection = select("#EXTM3U\r\ne.mp3\r\nalbum/A.MP3\r\n./Album\\Disc 1\\c.mp3\r\n  My Song.mp3\t\r\n")
        #expect(selection.tracks.map(\.description) == ["e.mp3", "Album/a.mp3", "Album/Disc 1/c.mp3", "My Song.mp3"])
        #expect(selection.notes.isEmpty)
        #expect(selection.source == .playlist(name: "shfl.m3u"))
        #expect(selection.candidateCount == 8)
        #expect(selection.capacityDescription == "4/120")
        #expect(selection.description == "4/120 tracks by playlist shfl.m3u from 8 MP3 files on the stick, 0 notes")
    }

    @Test func everySkippedEntryIsNamedWithItsLineAndReason() {
        let text = """
            #EXTM3U
            #EXTINF:200,Artist - A
            Album/a.mp3
            Music/x.mp3
            cover.jpg
            http://radio.example/stream.mp3
            C:\\Users\\me\\Music\\d.mp3
            ../outside.mp3
            Album/../Album/./a.mp3
            Album/
            Album/Sub/../../e.mp3
            /d.mp3
            """
        let selection = select(text)
        #expect(selection.tracks.map(\.description) == ["Album/a.mp3", "e.mp3", "d.mp3"])
        #expect(selection.notes.map(\.description) == [
            "shfl.m3u line 4: \"Music/x.mp3\": not found on the stick",
            "shfl.m3u line 5: \"cover.jpg\": not an MP3 file (only .mp3 files are played)",
            "shfl.m3u line 6: \"http://radio.example/stream.mp3\": a URL; only files on the stick can be played",
            "shfl.m3u line 7: \"C:\\Users\\me\\Music\\d.mp3\": a Windows drive or network path;"
                + " write paths relative to the stick's root",
            "shfl.m3u line 8: \"../outside.mp3\": \"..\" leads out of the stick's root",
            "shfl.m3u line 9: \"Album/../Album/./a.mp3\": listed twice (first on line 3)",
            "shfl.m3u line 10: \"Album/\": names a folder, not a file",
        ])
        #expect(selection.notes.allSatisfy { $0.level == .warning })
        #expect(selection.notes.first?.logMessage.description == "<4>shfl.m3u line 4: \"Music/x.mp3\": not found on the stick")
    }

    @Test func lineNumbersFollowEveryKindOfLineEnd() {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("a.mp3\r\n\rmissing1.mp3\r\nb.mp3\nmissing2.mp3".utf8)
        let selection = select(bytes, files: ["a.mp3", "b.mp3"])
        #expect(selection.tracks.map(\.description) == ["a.mp3", "b.mp3"])
        #expect(selection.notes.map(\.description) == [
            "shfl.m3u line 3: \"missing1.mp3\": not found on the stick",
            "shfl.m3u line 5: \"missing2.mp3\": not found on the stick",
        ])
    }

    @Test func aDuplicateNamesTheFirstLineEvenWhenSpelledDifferently() {
        let selection = select("d.mp3\ne.mp3\n/D.MP3\n./e.mp3\n")
        #expect(selection.tracks.map(\.description) == ["d.mp3", "e.mp3"])
        #expect(selection.notes == [
            .playlistEntrySkipped(playlist: "shfl.m3u", line: 3, entry: "/D.MP3", problem: .duplicate(firstLine: 1)),
            .playlistEntrySkipped(playlist: "shfl.m3u", line: 4, entry: "./e.mp3", problem: .duplicate(firstLine: 2)),
        ])
    }

    @Test func anExactMatchBeatsACaseInsensitiveOne() {
        // An ext4 stick may hold names that differ only in case; FAT cannot.
        let files = ["Song.mp3", "song.mp3", "SONG.mp3"]
        #expect(select("song.mp3", files: files).tracks == [TrackPath("song.mp3")])
        #expect(select("Song.mp3", files: files).tracks == [TrackPath("Song.mp3")])
        // No exact match: the first of them in path order, the same whatever the scan order.
        #expect(select("sOnG.mp3", files: files).tracks == [TrackPath("SONG.mp3")])
        #expect(select("sOnG.mp3", files: files.reversed()).tracks == [TrackPath("SONG.mp3")])
        // Folders too are matched ignoring case.
        #expect(select("ALBUM/DISC 1/C.mp3").tracks == [TrackPath("Album/Disc 1/c.mp3")])
    }

    @Test func namesThatAreNotUTF8AreMatchedByTheirBytes() {
        let latin1Name: [UInt8] = [0x43, 0x61, 0x66, 0xE9] + Array(".mp3".utf8)  // "Café.mp3" in Latin-1
        let candidates = [LibraryCandidate(path: TrackPath(bytes: latin1Name)), LibraryCandidate(path: TrackPath("x.mp3"))]
        let playlist = Playlist(name: "shfl.m3u", contents: latin1Name + [0x0A] + [0xFF, 0xFE] + Array(".mp3".utf8))
        let selection = Library.select(playlist: playlist, from: candidates)
        #expect(selection.tracks == [TrackPath(bytes: latin1Name)])
        #expect(selection.notes.map(\.description) == [
            "shfl.m3u line 2: \"\u{FFFD}\u{FFFD}.mp3\": not found on the stick",
        ])
    }

    @Test func aWindowsCodePagePlaylistFindsUTF8Names() {
        // Winamp and Windows Media Player write .m3u files in Windows-1252.
        let bytes: [UInt8] = Array("Caf".utf8) + [0xE9] + Array(".mp3\r\nDon".utf8) + [0x92] + Array("t.mp3\r\n".utf8)
        let selection = select(bytes)
        #expect(selection.tracks.map(\.description) == ["Café.mp3", "Don’t.mp3"])
        #expect(selection.notes.isEmpty)
        #expect(TrackPath("Café.mp3").windows1252AsUTF8 == nil)
    }

    @Test func entriesBeyondCapacityGetOneSummaryNote() {
        let files = (0..<300).map { "t" + String($0) + ".mp3" }
        var text = "#EXTM3U\n"
        for index in 0..<200 {
            text += "#EXTINF:100,Track " + String(index) + "\n"
            text += (index == 5 ? "missing.mp3" : files[index]) + "\n"
        }
        let selection = select(text, files: files)
        let expected = (0..<121).filter { $0 != 5 }.map { TrackPath(files[$0]) }
        #expect(selection.tracks == expected)
        #expect(selection.capacityDescription == "120/120")
        #expect(selection.notes.map(\.description) == [
            "shfl.m3u line 13: \"missing.mp3\": not found on the stick",
            "shfl.m3u line 245 and later: 79 entries not loaded: only the first 120 playable entries are loaded",
        ])
    }

    @Test func theSummaryAppearsOnlyWhenEntriesRemainAfterCapacity() {
        let files = (0..<120).map { "t" + String($0) + ".mp3" }
        let selection = select(files.joined(separator: "\n") + "\nmissing.mp3", files: files)
        #expect(selection.tracks.count == 120)
        #expect(selection.notes == [.playlistBeyondCapacity(playlist: "shfl.m3u", fromLine: 121, entries: 1, capacity: 120)])
        #expect(select(files.joined(separator: "\n"), files: files).notes.isEmpty)
    }

    @Test func aFloodOfBadEntriesIsNotedUpToALimit() {
        let text = (0..<250).map { "missing" + String($0) + ".mp3" }.joined(separator: "\n") + "\nd.mp3"
        let selection = select(text)
        #expect(selection.tracks == [TrackPath("d.mp3")])
        #expect(selection.notes.count == Library.maximumEntryNotes + 1)
        #expect(selection.notes.last?.description
            == "shfl.m3u: 150 more skipped entries not listed one by one; fix the ones above first")
    }

    @Test func anEmptyOrUselessPlaylistGivesNoTracksAndSaysSo() {
        for contents in ["", "#EXTM3U\n#EXTINF:1,Nothing\n\n", "missing.mp3\nhttp://x.example/a.mp3\n"] {
            let selection = select(contents)
            #expect(selection.tracks.isEmpty)
            #expect(selection.capacityDescription == "0/120")
            #expect(selection.notes.last == .playlistHasNoTracks(playlist: "shfl.m3u"))
        }
        #expect(LibraryNote.playlistHasNoTracks(playlist: "shfl.m3u8").description
            == "shfl.m3u8: no playable entry; it names no MP3 file found on the stick")
        #expect(select("a.mp3", files: []).notes.map(\.description) == [
            "shfl.m3u line 1: \"a.mp3\": not found on the stick",
            "shfl.m3u: no playable entry; it names no MP3 file found on the stick",
        ])
    }

    @Test func controlCharactersInAnEntryCannotForgeLogLines() {
        let selection = select([0x61, 0x0B, 0x1B] + Array("[2Jx.mp3".utf8))
        #expect(selection.notes.first?.description == "shfl.m3u line 1: \"a??[2Jx.mp3\": not found on the stick")
    }
}
