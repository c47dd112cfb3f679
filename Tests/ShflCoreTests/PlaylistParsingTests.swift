import ShflCore
import Testing

/// Splitting an M3U file into entries, and reading one entry as a path on the stick.
@Suite struct PlaylistParsingTests {
    func entries(_ bytes: [UInt8]) -> [String] {
        Playlist(name: "shfl.m3u", contents: bytes).entries.map(\.description)
    }

    func entries(_ text: String) -> [String] {
        entries(Array(text.utf8))
    }

    func path(_ entry: String) throws(PlaylistEntryProblem) -> String {
        try TrackPath(playlistEntry: Array(entry.utf8)).description
    }

    func problem(_ entry: String) -> PlaylistEntryProblem? {
        do {
            _ = try TrackPath(playlistEntry: Array(entry.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func lineEndsMayBeLFCRLFOrALoneCRAndLinesAreNumberedAsAnEditorShowsThem() {
        #expect(entries("a.mp3\nb.mp3\n") == ["line 1: a.mp3", "line 2: b.mp3"])
        #expect(entries("a.mp3\r\nb.mp3\r\n") == ["line 1: a.mp3", "line 2: b.mp3"])
        #expect(entries("a.mp3\rb.mp3") == ["line 1: a.mp3", "line 2: b.mp3"])
        #expect(entries("a.mp3\n\r\nb.mp3\r\rc.mp3") == ["line 1: a.mp3", "line 3: b.mp3", "line 5: c.mp3"])
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() {
        #expect(entries([0xEF, 0xBB, 0xBF] + Array("#EXTM3U\na.mp3".utf8)) == ["line 2: a.mp3"])
        #expect(entries([0xEF, 0xBB, 0xBF] + Array("a.mp3".utf8)) == ["line 1: a.mp3"])
        let playlist = Playlist(name: "shfl.m3u", contents: Array("a.mp3\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b.mp3".utf8))
        #expect(playlist.entries.last?.text == [0xEF, 0xBB, 0xBF] + Array("b.mp3".utf8))
    }

    @Test func commentsExtendedInfoAndBlankLinesAreIgnored() {
        let text = """
            #EXTM3U
            #EXTINF:215,Artist - Title
            Album/a.mp3

              \t
              # an indented comment
            #EXTINF:-1,Radio
            b.mp3
            """
        #expect(entries(text) == ["line 3: Album/a.mp3", "line 8: b.mp3"])
    }

    @Test func spacesAndTabsAroundAnEntryAreTrimmedButNotInside() {
        #expect(entries(" \t My Album/My Song.mp3\t  \r\n") == ["line 1: My Album/My Song.mp3"])
    }

    @Test func emptyFilesHaveNoEntries() {
        #expect(entries([]).isEmpty)
        #expect(entries([0xEF, 0xBB, 0xBF]).isEmpty)
        #expect(entries("\n\r\n  \n#EXTM3U\n").isEmpty)
    }

    @Test func entriesKeepTheirRawBytes() {
        let playlist = Playlist(name: "shfl.m3u", contents: [0x43, 0x61, 0x66, 0xE9, 0x0A])
        #expect(playlist.entries == [Playlist.Entry(line: 1, text: [0x43, 0x61, 0x66, 0xE9])])
        #expect(playlist.entries.first?.shownText == "Caf\u{FFFD}")
        #expect(playlist.description == "shfl.m3u (1 entry)")
    }

    @Test func longEntriesAreCutForTheLog() {
        let entry = Playlist.Entry(line: 1, text: Array(String(repeating: "x", count: 5000).utf8))
        #expect(entry.shownText == String(repeating: "x", count: Playlist.Entry.shownLimit) + "…")
    }

    @Test func playlistFileNamesMatchInAnyCaseAtTheRootOnly() {
        #expect(Playlist.isPlaylistFile(TrackPath("shfl.m3u")))
        #expect(Playlist.isPlaylistFile(TrackPath("SHFL.M3U8")))
        #expect(!Playlist.isPlaylistFile(TrackPath("Music/shfl.m3u")))
        #expect(!Playlist.isPlaylistFile(TrackPath("other.m3u")))
        #expect(Playlist.fileNames == ["shfl.m3u8", "shfl.m3u"])
    }

    @Test func entriesAreNormalisedToPathsFromTheStickRoot() throws {
        #expect(try path("Album/a.mp3") == "Album/a.mp3")
        #expect(try path("Album\\Disc 1\\a.mp3") == "Album/Disc 1/a.mp3")
        #expect(try path("./Album/./a.mp3") == "Album/a.mp3")
        #expect(try path(".\\a.mp3") == "a.mp3")
        #expect(try path("Album//a.mp3") == "Album/a.mp3")
        #expect(try path("/Album/a.mp3") == "Album/a.mp3")
        #expect(try path("\\Album\\a.mp3") == "Album/a.mp3")
        #expect(try path("Album/../b.mp3") == "b.mp3")
        #expect(try path("A/B/../../C/./d.mp3") == "C/d.mp3")
        #expect(try path("..a.mp3") == "..a.mp3")
        #expect(try path("a..mp3") == "a..mp3")
        #expect(try path("Band: Live.mp3") == "Band: Live.mp3")
    }

    @Test func entriesThatCannotBeOnTheStickAreRejected() {
        #expect(problem("../a.mp3") == .escapesRoot)
        #expect(problem("Album/../../a.mp3") == .escapesRoot)
        #expect(problem("/..\\a.mp3") == .escapesRoot)
        #expect(problem("http://example.com/a.mp3") == .url)
        #expect(problem("file:///media/usb/a.mp3") == .url)
        #expect(problem("svn+ssh://host/a.mp3") == .url)
        #expect(problem("C:\\Music\\a.mp3") == .drivePath)
        #expect(problem("d:/Music/a.mp3") == .drivePath)
        #expect(problem("E:a.mp3") == .drivePath)
        #expect(problem("\\\\server\\share\\a.mp3") == .drivePath)
        #expect(problem("Album/") == .notAFile)
        #expect(problem("Album\\") == .notAFile)
        #expect(problem(".") == .notAFile)
        #expect(problem("/") == .notAFile)
        #expect(problem("Album/..") == .notAFile)
    }
}
