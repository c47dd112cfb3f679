import Foundation
import ShflCore
import ShflMedia
import ShflSimulated
import ShflSystem
import Testing

/// A clock that moves 1 ms each time it is read: a time limit is reached after a known amount
/// of work, without sleeping.
private final class SteppingClock: MonotonicClock {
    private var current = Instant.zero
    var now: Instant {
        current = current + .milliseconds(1)
        return current
    }
}

/// Scanning real trees, hostile ones included (SPEC §2): each finishes within its bounds,
/// selects what it should, and never leaves the tree.
@Suite struct StickScannerTests {
    let scanner = StickScanner(clock: SystemMonotonicClock())

    func tree(_ label: String, _ build: (String) throws -> Void) throws -> String {
        let root = try MediaTestSupport.temporaryDirectory(label)
        do {
            try build(root)
        } catch {
            MediaTestSupport.remove(root)
            throw error
        }
        return root
    }

    func paths(_ scan: StickScan) -> Set<TrackPath> {
        Set(scan.candidates.map { $0.path })
    }

    @Test func findsMP3FilesInAnyCaseAndCountsWhatItSkips() throws {
        let root = try tree("plain") { root in
            for folder in ["Album", "Album/CD 2", ".hidden", "System Volume Information", "$RECYCLE.BIN/S-1-5"] {
                try MediaTestSupport.makeDirectory(root + "/" + folder)
            }
            for file in ["a.mp3", "Album/B.MP3", "Album/CD 2/c.Mp3", "Album/cover.jpg", "Album/notes.txt", ".hidden/h.mp3",
                         "._a.mp3", "System Volume Information/x.mp3", "$RECYCLE.BIN/S-1-5/deleted.mp3", "mp3", ".mp3", "x.mp3.txt"] {
                try MediaTestSupport.makeFile(root + "/" + file, "data")
            }
            var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, root + "/a.mp3", &times, 0) == 0)
        }
        defer { MediaTestSupport.remove(root) }

        let scan = try scanner.scan(FilePath(root))
        #expect(paths(scan) == [TrackPath("a.mp3"), TrackPath("Album/B.MP3"), TrackPath("Album/CD 2/c.Mp3")])
        #expect(scan.candidates.first { $0.path == TrackPath("a.mp3") }?.modified == 1_600_000_000)
        #expect(scan.skipCounts[.hidden] == 3)  // .hidden/, ._a.mp3, .mp3
        #expect(scan.skipCounts[.systemFolder] == 2)
        #expect(scan.skipCounts[.notMP3] == 4)  // cover.jpg, notes.txt, mp3, x.mp3.txt
        #expect(scan.notes.isEmpty, "harmless skips are counted, not listed")
        #expect(scan.stop == nil)
        #expect(scan.foldersVisited == 3)
        #expect(scan.summary.contains("3 MP3"))
        #expect(scan.summary.contains("3 hidden entries, 2 system folders, 4 files not MP3"))
        let selection = scan.selection(policy: .alphabetical)
        #expect(selection.tracks == [TrackPath("a.mp3"), TrackPath("Album/B.MP3"), TrackPath("Album/CD 2/c.Mp3")])
        #expect(selection.capacityDescription == "3/120")
    }

    @Test func twentyThousandFilesKeepTheFirstInPathOrderWithinTheTrackLimit() throws {
        let root = try tree("many") { root in
            for folder in 0..<40 {
                let path = root + "/Folder \(folder)"
                try MediaTestSupport.makeDirectory(path)
                for file in 0..<500 { try MediaTestSupport.makeFile(path + "/\(file).mp3") }
            }
        }
        defer { MediaTestSupport.remove(root) }
        let all = (0..<40).flatMap { folder in (0..<500).map { TrackPath("Folder \(folder)/\($0).mp3") } }.sorted()

        // The standard limits find all 20,000.
        let full = try scanner.scan(FilePath(root))
        print("scan of 20,000 MP3 files in 40 folders: \(full.elapsed.millisecondsDescription)")
        #expect(full.stop == nil)
        #expect(full.candidates.count == 20_000)

        // 5,000 kept: the first 5,000 in path order, whatever order the walk met them in.
        let kept = try StickScanner(limits: ScanLimits(maximumTracks: 5_000), clock: SystemMonotonicClock()).scan(FilePath(root))
        #expect(kept.stop == .trackLimit(5_000, leftOut: 15_000))
        #expect(kept.skipCounts[.trackLimit] == 15_000)
        #expect(kept.entriesVisited == 20_040)
        #expect(paths(kept) == Set(all.prefix(5_000)))
        let selection = kept.selection(policy: .alphabetical)
        #expect(selection.tracks == Array(all.prefix(120)))
        #expect(selection.notes.count == 1)

        // The entry limit stops the walk: the 40 folders, then 19,960 files in them.
        let cut = try StickScanner(limits: ScanLimits(maximumEntries: 20_000), clock: SystemMonotonicClock()).scan(FilePath(root))
        #expect(cut.stop == .entryLimit(20_000))
        #expect(cut.entriesVisited == 20_000)
        #expect(cut.candidates.count == 19_960)
        #expect(cut.selection(policy: .alphabetical).tracks.count == 120)
    }

    /// Over the folder limit, the folders entered are the shallowest, then the first in path
    /// order, whatever order they were made (and listed) in; the others are named.
    @Test func theFolderLimitEntersTheShallowestFirstInPathOrder() throws {
        let names = (0..<30).map { "Album \(String(100 + $0))" }
        let root = try tree("folders") { root in
            for name in names.reversed() {
                try MediaTestSupport.makeDirectory(root + "/" + name + "/Disc 1")
                try MediaTestSupport.makeFile(root + "/" + name + "/a.mp3")
                try MediaTestSupport.makeFile(root + "/" + name + "/Disc 1/b.mp3")
            }
        }
        defer { MediaTestSupport.remove(root) }

        let limited = StickScanner(limits: ScanLimits(maximumFolders: 41), clock: SystemMonotonicClock())
        let scan = try limited.scan(FilePath(root))
        // The root, the 30 albums, then the first 10 albums' "Disc 1".
        var expected = Set(names.map { TrackPath($0 + "/a.mp3") })
        for name in names.prefix(10) { expected.insert(TrackPath(name + "/Disc 1/b.mp3")) }
        #expect(paths(scan) == expected)
        #expect(scan.foldersVisited == 41)
        #expect(scan.stop == .folderLimit(41, leftOut: 20))
        #expect(scan.notes.map { $0.path } == names.dropFirst(10).map { TrackPath($0 + "/Disc 1") })
        #expect(scan.notes.first?.reason == "beyond the first 41 folders (the limit); not entered")
        #expect(scan.summary.contains("20 folders over the folder limit"))

    }

    /// A folder of many folders: only the names of the first (in path order) are kept while it
    /// is listed, the rest are counted.
    @Test func aFolderOfManyFoldersKeepsTheFirstWithinTheFolderLimit() throws {
        let names = (0..<300).map { "Folder \(String(1_000 + $0))" }
        let root = try tree("wide") { root in
            for name in names.reversed() {
                try MediaTestSupport.makeDirectory(root + "/" + name)
                try MediaTestSupport.makeFile(root + "/" + name + "/a.mp3")
            }
        }
        defer { MediaTestSupport.remove(root) }

        let scan = try StickScanner(limits: ScanLimits(maximumFolders: 6), clock: SystemMonotonicClock()).scan(FilePath(root))
        #expect(paths(scan) == Set(names.prefix(5).map { TrackPath($0 + "/a.mp3") }))
        #expect(scan.stop == .folderLimit(6, leftOut: 295))
        #expect(scan.skipCounts[.folderLimit] == 295)
        #expect(scan.notes.count == 100, "at most maximumNotes")
    }

    /// Music/: 10 artists, 3 albums each, 10 tracks and a cover each (300 MP3 files).
    func makeMusic(_ root: String) throws -> Set<TrackPath> {
        var tracks: Set<TrackPath> = []
        for artist in 0..<10 {
            for album in 0..<3 {
                let folder = "Music/Artist \(artist)/Album \(album)"
                try MediaTestSupport.makeDirectory(root + "/" + folder)
                try MediaTestSupport.makeFile(root + "/" + folder + "/cover.jpg")
                for track in 0..<10 {
                    let path = folder + "/\(track) Song.mp3"
                    try MediaTestSupport.makeFile(root + "/" + path)
                    tracks.insert(TrackPath(path))
                }
            }
        }
        return tracks
    }

    /// Issue #11: a phone's photo backup beside the music. DCIM/ holds 100,000 pictures in
    /// nested folders, made first and named to come first: every MP3 file must still be found,
    /// and the scan must not be cut short by the junk.
    @Test func aPhotoBackupOf100000FilesBesideTheMusicHidesNoTrack() throws {
        let root = try tree("junk") { root in
            for camera in 0..<20 {
                for burst in 0..<10 {
                    let folder = root + "/DCIM/\(100 + camera)APPLE/Burst \(burst)"
                    try MediaTestSupport.makeDirectory(folder)
                    for picture in 0..<500 { try MediaTestSupport.makeFile(folder + "/IMG_\(burst * 500 + picture).JPG") }
                }
            }
        }
        defer { MediaTestSupport.remove(root) }
        let music = try makeMusic(root)

        let scan = try scanner.scan(FilePath(root))
        print("scan of 100,000 junk entries + \(music.count) tracks: \(scan.elapsed.millisecondsDescription), found \(paths(scan).intersection(music).count)/\(music.count)")
        let missing = music.subtracting(paths(scan))
        #expect(missing.isEmpty, "\(missing.count) of \(music.count) tracks not found, such as \(missing.sorted().first?.description ?? "")")
        #expect(paths(scan).isSubset(of: music))
        #expect(scan.stop == nil, "\(scan.stop?.description ?? "")")
        #expect(scan.skipCounts[.notMP3] == 100_000 + 30)
        let selection = scan.selection(policy: .alphabetical)
        #expect(selection.candidateCount == 300)
        #expect(selection.tracks == Array(music.sorted().prefix(120)), "the first 120 in path order")
    }

    /// Shallow before deep: a deep junk tree cannot use up the entry limit before the music
    /// beside it is looked at, whatever order the file system lists them in.
    @Test func deepJunkCannotStarveShallowMusic() throws {
        let root = try tree("deepjunk") { root in
            let deep = root + "/Backup/a/b/c/d/e/f"
            try MediaTestSupport.makeDirectory(deep)
            for file in 0..<5_000 { try MediaTestSupport.makeFile(deep + "/\(file).dat") }
        }
        defer { MediaTestSupport.remove(root) }
        let music = try makeMusic(root)

        let small = StickScanner(limits: ScanLimits(maximumEntries: 2_000), clock: SystemMonotonicClock())
        let scan = try small.scan(FilePath(root))
        let missing = music.subtracting(paths(scan))
        #expect(missing.isEmpty, "\(missing.count) of \(music.count) tracks not found")
        #expect(scan.stop == .entryLimit(2_000))
    }

    @Test func tenThousandNestedFoldersStopAtDepthEight() throws {
        let root = try tree("deep") { root in
            // Built with mkdirat/openat: the whole path is far longer than PATH_MAX.
            var parent = open(root, O_RDONLY | O_DIRECTORY)
            for level in 0..<10_000 {
                if level < 12 {  // deeper tracks would not be found either
                    close(openat(parent, "t.mp3", O_WRONLY | O_CREAT, 0o644))
                }
                #expect(mkdirat(parent, "d", 0o755) == 0)
                let child = openat(parent, "d", O_RDONLY | O_DIRECTORY)
                close(parent)
                parent = child
            }
            close(parent)
        }
        defer { MediaTestSupport.remove(root) }

        let scan = try scanner.scan(FilePath(root))
        // t.mp3 in the root and in the 8 folders below it; the 9th folder is not entered.
        var expected: Set<TrackPath> = [TrackPath("t.mp3")]
        var prefix = ""
        for _ in 1...8 {
            prefix += "d/"
            expected.insert(TrackPath(prefix + "t.mp3"))
        }
        #expect(paths(scan) == expected)
        #expect(scan.foldersVisited == 9)
        #expect(scan.skipCounts[.tooDeep] == 1)
        #expect(scan.notes.map { $0.path } == [TrackPath(prefix + "d")])
        #expect(scan.notes.first?.reason.contains("deeper than 8") == true)
        #expect(scan.stop == nil)
    }

    @Test func symbolicLinksAreNeverFollowedSoNothingOutsideIsReached() throws {
        let root = try tree("links") { root in
            try MediaTestSupport.makeDirectory(root + "/Music")
            try MediaTestSupport.makeFile(root + "/Music/real.mp3", "x")
            let fm = FileManager.default
            try fm.createSymbolicLink(atPath: root + "/self", withDestinationPath: ".")
            try fm.createSymbolicLink(atPath: root + "/Music/up", withDestinationPath: "../..")
            try fm.createSymbolicLink(atPath: root + "/loop1", withDestinationPath: "loop2")
            try fm.createSymbolicLink(atPath: root + "/loop2", withDestinationPath: "loop1")
            try fm.createSymbolicLink(atPath: root + "/etc", withDestinationPath: "/etc")
            try fm.createSymbolicLink(atPath: root + "/passwd.mp3", withDestinationPath: "/etc/passwd")
            try fm.createSymbolicLink(atPath: root + "/escape.mp3", withDestinationPath: "../../../../../etc/hostname")
            try fm.createSymbolicLink(atPath: root + "/Again", withDestinationPath: "Music")
            try fm.createSymbolicLink(atPath: root + "/shfl.m3u", withDestinationPath: "/etc/passwd")
        }
        defer { MediaTestSupport.remove(root) }

        let scan = try scanner.scan(FilePath(root))
        #expect(paths(scan) == [TrackPath("Music/real.mp3")])
        #expect(scan.skipCounts[.symbolicLink] == 9)
        #expect(scan.notes.count == 9)
        #expect(scan.notes.allSatisfy { $0.reason == "symbolic link, not followed" })
        #expect(scan.playlist == nil, "a linked playlist is not read")
        #expect(scan.foldersVisited == 2)
        // Every candidate really is inside the tree.
        for candidate in scan.candidates {
            let resolved = URL(fileURLWithPath: root + "/" + candidate.path.description).resolvingSymlinksInPath().path
            #expect(resolved.hasPrefix(URL(fileURLWithPath: root).resolvingSymlinksInPath().path + "/"))
        }
    }

    @Test func strangeNamesAreKeptByteForByte() throws {
        let invalidUTF8: [UInt8] = [0xFF, 0xFE, 0x41] + Array(".mp3".utf8)
        let longName = [UInt8](repeating: UInt8(ascii: "x"), count: 251) + Array(".mp3".utf8)
        let names: [[UInt8]] = [invalidUTF8, Array("line\nbreak.mp3".utf8), longName, Array("Ümlaut ünd Ωmega.Mp3".utf8),
                                Array("tab\tand%25.mp3".utf8), Array("  spaces  .mp3".utf8)]
        let root = try tree("names") { root in
            for name in names { try MediaTestSupport.makeFile(Array(root.utf8) + [UInt8(ascii: "/")] + name, contents: [1]) }
        }
        defer { MediaTestSupport.remove(root) }

        let scan = try scanner.scan(FilePath(root))
        #expect(longName.count == 255)
        #expect(paths(scan) == Set(names.map { TrackPath(bytes: $0) }))
        #expect(scan.selection(policy: .alphabetical).tracks.count == names.count)
        #expect(TrackPath(bytes: invalidUTF8).description == "\u{FFFD}\u{FFFD}A.mp3")
        #expect(TrackPath(bytes: Array("line\nbreak.mp3".utf8)).description == "line?break.mp3")
    }

    @Test func fifosAndDeviceNodesNamedMP3AreNeverOpened() throws {
        let root = try tree("special") { root in
            try MediaTestSupport.makeDirectory(root + "/Album")
            #expect(mkfifo(root + "/Album/song.mp3", 0o644) == 0)
            #expect(mkfifo(root + "/shfl.m3u", 0o644) == 0)
            try MediaTestSupport.makeFile(root + "/Album/real.mp3", "x")
            if MediaTestSupport.isRoot {
                #expect(mknod(root + "/Album/zero.mp3", S_IFCHR | 0o644, dev_t((1 << 8) | 5)) == 0)
                #expect(mknod(root + "/Album/disk.MP3", S_IFBLK | 0o644, dev_t((7 << 8) | 200)) == 0)
            }
        }
        defer { MediaTestSupport.remove(root) }

        // A reader blocked in open() of the FIFO would hang the scan: a watchdog opens the
        // write end (which succeeds only while a reader has it open) and so unblocks it.
        let opened = WatchdogFlag()
        let watchdog = Thread {
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline && !opened.done {
                for fifo in [root + "/Album/song.mp3", root + "/shfl.m3u"] {
                    let writer = open(fifo, O_WRONLY | O_NONBLOCK)
                    if writer >= 0 {
                        opened.sawReader = true
                        close(writer)
                    }
                }
                usleep(200)
            }
        }
        watchdog.start()
        let scan = try scanner.scan(FilePath(root))
        opened.done = true
        #expect(!opened.sawReader, "the scanner opened a FIFO")
        #expect(paths(scan) == [TrackPath("Album/real.mp3")])
        let special = MediaTestSupport.isRoot ? 4 : 2
        #expect(scan.skipCounts[.notRegularFile] == special)
        #expect(scan.notes.contains { $0.path == TrackPath("Album/song.mp3") && $0.reason == "FIFO, not a regular file; not opened" })
        #expect(scan.notes.contains { $0.path == TrackPath("shfl.m3u") })
        if MediaTestSupport.isRoot {
            #expect(scan.notes.contains { $0.path == TrackPath("Album/zero.mp3") && $0.reason.hasPrefix("character device") })
            #expect(scan.notes.contains { $0.path == TrackPath("Album/disk.MP3") && $0.reason.hasPrefix("block device") })
        }
        #expect(scan.playlist == nil)
    }

    @Test func anEmptyStickGivesNoTracks() throws {
        let root = try tree("empty") { _ in }
        defer { MediaTestSupport.remove(root) }
        let scan = try scanner.scan(FilePath(root))
        #expect(scan.candidates.isEmpty && scan.notes.isEmpty && scan.stop == nil)
        #expect(scan.entriesVisited == 0)
        #expect(scan.selection(policy: .alphabetical).capacityDescription == "0/120")
    }

    @Test func aStickWithoutMP3FilesGivesNoTracksAndSaysWhy() throws {
        let root = try tree("nomp3") { root in
            try MediaTestSupport.makeDirectory(root + "/Photos")
            for name in ["a.jpg", "b.wav", "c.flac", "d.mp4", "Photos/e.png", "f.m4a", "g.mp2"] {
                try MediaTestSupport.makeFile(root + "/" + name, "x")
            }
        }
        defer { MediaTestSupport.remove(root) }
        let scan = try scanner.scan(FilePath(root))
        #expect(scan.candidates.isEmpty)
        #expect(scan.skipCounts[.notMP3] == 7)
        #expect(scan.summary.hasSuffix("skipped: 7 files not MP3"))
        #expect(scan.selection(policy: .mostPlayed).tracks.isEmpty)
    }

    @Test func theTimeLimitStopsTheScanAndKeepsWhatItFound() throws {
        let root = try tree("slow") { root in
            for file in 0..<500 { try MediaTestSupport.makeFile(root + "/\(file).mp3") }
        }
        defer { MediaTestSupport.remove(root) }
        let scanner = StickScanner(limits: ScanLimits(timeLimit: .milliseconds(100)), clock: SteppingClock())
        let scan = try scanner.scan(FilePath(root))
        #expect(scan.stop == .timeLimit(.milliseconds(100)))
        #expect(scan.candidates.count > 50 && scan.candidates.count < 100)
        #expect(scan.selection(policy: .alphabetical).tracks.count == scan.candidates.count)
    }

    @Test(.enabled(if: MediaTestSupport.isRoot, "mounting needs root"))
    func aFileSystemMountedInsideTheStickIsNotEntered() throws {
        let root = try tree("inner") { root in
            try MediaTestSupport.makeDirectory(root + "/Inner")
            try MediaTestSupport.makeFile(root + "/outer.mp3", "x")
        }
        defer { MediaTestSupport.remove(root) }
        try MediaTestSupport.run("mount", ["-t", "tmpfs", "-o", "size=1m", "shfl-test", root + "/Inner"])
        defer { _ = try? MediaTestSupport.run("umount", ["-l", root + "/Inner"], check: false) }
        try MediaTestSupport.makeFile(root + "/Inner/inner.mp3", "x")

        let scan = try scanner.scan(FilePath(root))
        #expect(paths(scan) == [TrackPath("outer.mp3")])
        #expect(scan.notes.map { $0.description } == ["\"Inner\": another file system is mounted here; not entered"])
    }

    @Test func thePlaylistIsReadWithinItsLimitAndChooses() throws {
        let root = try tree("playlist") { root in
            try MediaTestSupport.makeDirectory(root + "/A")
            for name in ["A/1.mp3", "A/2.mp3", "A/3.mp3", "B.mp3"] { try MediaTestSupport.makeFile(root + "/" + name, "x") }
            try MediaTestSupport.makeFile(root + "/SHFL.M3U8", "#EXTM3U\nA/3.mp3\nb.mp3\n" + String(repeating: "#", count: 200) + "\nA/1.mp3\n")
            try MediaTestSupport.makeFile(root + "/shfl.m3u", "A/2.mp3\n")
        }
        defer { MediaTestSupport.remove(root) }

        let scan = try scanner.scan(FilePath(root))
        #expect(scan.playlist?.name == "SHFL.M3U8")
        #expect(scan.notes.map { $0.description } == ["\"shfl.m3u\": ignored: SHFL.M3U8 is the playlist used"])
        let chosen = scan.selection(policy: .alphabetical)
        #expect(chosen.source == .playlist(name: "SHFL.M3U8"))
        #expect(chosen.tracks == [TrackPath("A/1.mp3"), TrackPath("A/3.mp3"), TrackPath("B.mp3")], "path order")

        // Cut at 100 bytes: the cut line is dropped, and the note says so.
        let small = StickScanner(limits: ScanLimits(maximumPlaylistBytes: 100), clock: SystemMonotonicClock())
        let cut = try small.scan(FilePath(root))
        #expect(cut.playlist?.entries.map { TrackPath(bytes: $0.text) } == [TrackPath("A/3.mp3"), TrackPath("b.mp3")])
        #expect(cut.notes.contains { $0.path == TrackPath("SHFL.M3U8") && $0.reason.hasPrefix("larger than 100 bytes") })

        // A playlist that names nothing on the stick: the policy chooses, after the notes.
        try MediaTestSupport.makeFile(root + "/SHFL.M3U8", "missing.mp3\n")
        let fallback = try scanner.scan(FilePath(root)).selection(policy: .alphabetical)
        #expect(fallback.source == .policy(.alphabetical))
        #expect(fallback.tracks.count == 4)
        #expect(fallback.notes.map { $0.description }.last == "SHFL.M3U8: no playable entry; it names no MP3 file found on the stick")
    }

    @Test func aMissingRootIsAnErrorNamingIt() {
        #expect(throws: DeviceError.self) { try scanner.scan(FilePath("/nonexistent/shfl-stick")) }
        do {
            _ = try scanner.scan(FilePath("/nonexistent/shfl-stick"))
        } catch {
            #expect(error.description.hasPrefix("cannot scan /nonexistent/shfl-stick: ENOENT"))
        }
    }
}

/// Flags shared with the FIFO watchdog thread.
private final class WatchdogFlag: @unchecked Sendable {
    var sawReader = false
    var done = false
}
