import ShflCore
import Testing

@Suite struct TrackPathTests {
    @Test func pathOrderIgnoresASCIICaseThenUsesBytes() {
        let paths = ["b.mp3", "A.mp3", "a.mp3", "B/c.mp3", "a/z.mp3"].map(TrackPath.init)
        #expect(paths.sorted().map(\.description) == ["A.mp3", "a.mp3", "a/z.mp3", "b.mp3", "B/c.mp3"])
    }

    @Test func mp3ExtensionIsCaseInsensitive() {
        #expect(TrackPath("x/Song.MP3").hasMP3Extension)
        #expect(TrackPath("song.mp3").hasMP3Extension)
        #expect(!TrackPath(".mp3").hasMP3Extension)
        #expect(!TrackPath("song.mp4").hasMP3Extension)
    }

    @Test func invalidUTF8AndControlCharactersAreShownSafely() {
        let path = TrackPath(bytes: [0x61, 0xFF, 0x0A, 0x62])
        #expect(path.description == "a\u{FFFD}?b")
    }

    @Test func fileNameIsTheLastComponent() {
        #expect(TrackPath("Album/Disc 1/song.mp3").fileName == TrackPath("song.mp3"))
        #expect(TrackPath("song.mp3").fileName == TrackPath("song.mp3"))
    }
}
