import CSystem
import ShflCore
import ShflSystem

/// Walks a mounted stick and finds its MP3 files and its playlist (SPEC §2), within
/// `ScanLimits`; `StickScan.selection` then picks the 120 with the core's `Library`.
///
/// Safe on a hostile stick:
/// - Symbolic links are never followed: entries are examined with `fstatat(AT_SYMLINK_NOFOLLOW)`
///   and folders opened one path component at a time with `openat(O_DIRECTORY | O_NOFOLLOW)`
///   relative to their parent, so nothing outside the stick is reached, and a link loop is
///   just a link.
/// - A folder on another file system (a mount inside the mount) is not entered.
/// - Only regular files count: a FIFO, device node or socket named ".mp3" (or like the
///   playlist) is never opened. The playlist is opened with `O_NOFOLLOW | O_NONBLOCK`, checked
///   again with `fstat`, and read up to `maximumPlaylistBytes`.
/// - Depth, entries, folders, tracks kept and time are bounded; a scan cut short keeps what it
///   found and says so.
/// - Hidden entries (names starting with ".") and Windows' system folders are skipped.
/// - Names are bytes: invalid UTF-8, newlines and 255-byte names are kept exactly.
///
/// Junk cannot hide music (issue #11): a name that is neither a folder nor an MP3 file (nor
/// the playlist) is counted on its name and `d_type` alone, and kept nowhere, so 100,000
/// photos cost 100,000 compares against `maximumEntries`, which is high, and nothing against
/// the limits that keep tracks. The walk is breadth-first: every folder of one depth is listed
/// before any deeper one, the subfolders of each in path order, so a deep junk tree meets the
/// entry, folder and time limits after the shallow music beside it.
///
/// The tracks found do not depend on the order the file system lists entries in (the folders
/// entered are chosen in path order, the MP3 files kept are the first in path order), except
/// when the entry or time limit stopped the walk.
public struct StickScanner {
    public var limits: ScanLimits
    private let clock: any MonotonicClock

    public init(limits: ScanLimits = .standard, clock: any MonotonicClock) {
        self.limits = limits
        self.clock = clock
    }

    /// The Windows folders skipped at any depth, compared ignoring ASCII letter case.
    public static let systemFolders: [String] = ["System Volume Information", "$RECYCLE.BIN", "RECYCLER"]

    /// Scans the tree under `root` (the root itself may be reached through a symbolic link:
    /// it is the mount point the caller chose). Throws only when the root cannot be opened;
    /// everything below is noted and skipped.
    public func scan(_ root: FilePath) throws(DeviceError) -> StickScan {
        let start = clock.now
        var result = StickScan(root: root)
        let rootDirectory: FileDescriptor
        let rootStatus: FileStatus
        do {
            rootDirectory = try FileDescriptor.open(root.bytes, O_RDONLY | O_DIRECTORY | O_NONBLOCK)
        } catch {
            throw error.deviceError("cannot scan " + root.description)
        }
        defer { rootDirectory.close() }
        do {
            rootStatus = try rootDirectory.status()
        } catch {
            throw error.deviceError("cannot scan " + root.description)
        }
        let stream: DirectoryStream
        do {
            stream = try DirectoryStream(taking: try rootDirectory.openSubdirectory(Array(".".utf8)))
        } catch {
            throw error.deviceError("cannot list " + root.description)
        }

        var walk = Walk(scanner: self, root: rootDirectory, rootDevice: rootStatus.device, start: start)
        walk.run(listingRoot: stream, into: &result)
        readPlaylist(walk.playlistNames, in: rootDirectory, into: &result)
        result.elapsed = clock.now - start
        return result
    }

    /// One breadth-first walk: the folders of one depth are listed in order while the next
    /// depth's are collected.
    private struct Walk {
        let scanner: StickScanner
        let limits: ScanLimits
        let root: FileDescriptor
        let rootDevice: UInt64
        let start: Instant
        /// The open ancestors of the folder listed last, the root's child first. Folders of one
        /// parent are listed one after the other, so each is opened from its parent's
        /// descriptor; moving to the next parent reopens only what differs.
        var ancestors: [(name: [UInt8], directory: FileDescriptor)] = []
        /// Folders entered or waiting to be, the root included (`maximumFolders`).
        var foldersAdmitted = 1
        var foldersLeftOut = 0
        var tracksLeftOut = 0
        /// Whether `candidates` is a max-heap in path order (once `maximumTracks` is reached).
        var candidatesAreHeap = false
        /// The junk, counted here and added to `skipCounts` once: it is most of a junk stick.
        var hidden = 0
        var notMP3 = 0
        /// Regular files at the root named like a playlist.
        var playlistNames: [[UInt8]] = []

        init(scanner: StickScanner, root: FileDescriptor, rootDevice: UInt64, start: Instant) {
            self.scanner = scanner
            self.limits = scanner.limits
            self.root = root
            self.rootDevice = rootDevice
            self.start = start
        }

        mutating func run(listingRoot stream: DirectoryStream, into result: inout StickScan) {
            defer {
                for ancestor in ancestors { ancestor.directory.close() }
                ancestors = []
                result.count(.hidden, hidden)
                result.count(.notMP3, notMP3)
                result.count(.trackLimit, tracksLeftOut)
                if result.stop == nil && foldersLeftOut > 0 {
                    result.stop = .folderLimit(limits.maximumFolders, leftOut: foldersLeftOut)
                } else if result.stop == nil && tracksLeftOut > 0 {
                    result.stop = .trackLimit(limits.maximumTracks, leftOut: tracksLeftOut)
                }
            }
            result.foldersVisited = 1
            // The paths of the folders to list at `depth`, in order.
            var level: [[UInt8]] = []
            guard list(stream, path: [], depth: 0, into: &result, next: &level) else { return }
            var depth = 1
            while !level.isEmpty {
                var next: [[UInt8]] = []
                for index in level.indices {
                    let path = level[index]
                    level[index] = []  // its memory goes once it is listed
                    guard let stream = open(path, into: &result) else { continue }
                    result.foldersVisited += 1
                    guard list(stream, path: path, depth: depth, into: &result, next: &next) else { return }
                }
                level = next
                depth += 1
            }
        }

        /// Lists one folder (and closes `stream`): counts its junk, keeps its MP3 files, and
        /// admits its subfolders to `next` in path order. False when the entry or time limit
        /// stopped the walk.
        private mutating func list(
            _ stream: DirectoryStream, path: [UInt8], depth: Int, into result: inout StickScan, next: inout [[UInt8]]
        ) -> Bool {
            defer { stream.close() }
            // The subfolders to admit. A folder of a million folders must not keep a million
            // names: past twice the room left, only the first `room` in path order are kept.
            var folders: [[UInt8]] = []
            let room = limits.maximumFolders - foldersAdmitted
            while true {
                if result.entriesVisited >= limits.maximumEntries {
                    result.stop = .entryLimit(limits.maximumEntries)
                    return false
                }
                if scanner.clock.now - start >= limits.timeLimit {
                    result.stop = .timeLimit(limits.timeLimit)
                    return false
                }
                let entry: DirectoryEntry?
                do {
                    entry = try stream.next()
                } catch {
                    result.skip(.unreadable, TrackPath(bytes: path), "cannot list the folder: " + error.description, limit: limits.maximumNotes)
                    entry = nil
                }
                guard let entry else { break }
                result.entriesVisited += 1
                if visit(entry, in: stream, path: path, depth: depth, into: &result) {
                    if room <= 0 {
                        leaveOut(Self.join(path, entry.name), into: &result)
                    } else {
                        folders.append(entry.name)
                        if folders.count >= 2 * max(room, 32) { keepFirst(room, of: &folders, in: path, into: &result) }
                    }
                }
            }
            keepFirst(room, of: &folders, in: path, into: &result)
            for name in folders {
                foldersAdmitted += 1
                next.append(Self.join(path, name))
            }
            return true
        }

        /// Sorts `folders` (names in the folder at `path`) in path order and leaves out all
        /// but the first `room`.
        private mutating func keepFirst(_ room: Int, of folders: inout [[UInt8]], in path: [UInt8], into result: inout StickScan) {
            folders.sort { TrackPath(bytes: $0) < TrackPath(bytes: $1) }
            let kept = max(0, room)
            guard folders.count > kept else { return }
            for name in folders[kept...] { leaveOut(Self.join(path, name), into: &result) }
            folders.removeLast(folders.count - kept)
        }

        /// Notes a folder left out by the folder limit.
        private mutating func leaveOut(_ folder: [UInt8], into result: inout StickScan) {
            foldersLeftOut += 1
            result.skip(.folderLimit, TrackPath(bytes: folder),
                        "beyond the first " + String(limits.maximumFolders) + " folders (the limit); not entered",
                        limit: limits.maximumNotes)
        }

        /// Looks at one entry of the folder at `path`; true for a folder to enter.
        private mutating func visit(
            _ entry: DirectoryEntry, in stream: DirectoryStream, path folder: [UInt8], depth: Int, into result: inout StickScan
        ) -> Bool {
            let name = entry.name
            if name.first == UInt8(ascii: ".") {
                hidden += 1
                return false
            }
            let isMP3 = TrackPath(bytes: name).hasMP3Extension
            let isPlaylistName = depth == 0 && Playlist.isPlaylistFile(TrackPath(bytes: name))
            var kind = entry.kind
            // The cheap pass: d_type and the name say enough for a file that cannot be used.
            if kind == .regular && !isMP3 && !isPlaylistName {
                notMP3 += 1
                return false
            }
            var status: FileStatus?
            if kind == .unknown || kind == .directory || kind == .regular {
                do {
                    let found = try stream.descriptor.statusOfEntry(name)
                    status = found
                    kind = found.kind
                } catch {
                    result.skip(.unreadable, TrackPath(bytes: Self.join(folder, name)), "cannot examine it: " + error.description, limit: limits.maximumNotes)
                    return false
                }
            }

            switch kind {
            case .directory:
                return mayEnter(name, in: folder, depth: depth, status: status, into: &result)
            case .regular:
                if isPlaylistName {
                    playlistNames.append(name)
                } else if isMP3 {
                    keep(LibraryCandidate(path: TrackPath(bytes: Self.join(folder, name)), modified: status?.modificationSeconds ?? 0), into: &result)
                } else {
                    notMP3 += 1
                }
            case .symbolicLink:
                result.skip(.symbolicLink, TrackPath(bytes: Self.join(folder, name)), "symbolic link, not followed", limit: limits.maximumNotes)
            case .fifo, .characterDevice, .blockDevice, .socket, .unknown:
                result.skip(.notRegularFile, TrackPath(bytes: Self.join(folder, name)), kind.description + ", not a regular file; not opened", limit: limits.maximumNotes)
            }
            return false
        }

        /// Whether the folder `name` (an entry at `depth`) may be entered: not a system folder,
        /// on the stick's file system, not too deep.
        private func mayEnter(_ name: [UInt8], in folder: [UInt8], depth: Int, status: FileStatus?, into result: inout StickScan) -> Bool {
            if StickScanner.isSystemFolder(name) {
                result.skip(.systemFolder, TrackPath(bytes: Self.join(folder, name)), "system folder", limit: limits.maximumNotes)
                return false
            }
            if let status, status.device != rootDevice {
                result.skip(.otherFileSystem, TrackPath(bytes: Self.join(folder, name)), "another file system is mounted here; not entered", limit: limits.maximumNotes)
                return false
            }
            if depth + 1 > limits.maximumDepth {
                result.skip(.tooDeep, TrackPath(bytes: Self.join(folder, name)), "folder nested deeper than " + String(limits.maximumDepth) + " levels; not entered", limit: limits.maximumNotes)
                return false
            }
            return true
        }

        /// Opens the folder at `path` (relative to the root, not the root) for listing, one
        /// component at a time without following a link, reusing the open ancestors that
        /// match; nil (with a note) when it cannot be, or is on another file system.
        private mutating func open(_ path: [UInt8], into result: inout StickScan) -> DirectoryStream? {
            let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            guard let last = components.last else { return nil }
            let parents = components.count - 1
            var kept = 0
            while kept < ancestors.count && kept < parents && ancestors[kept].name.elementsEqual(components[kept]) {
                kept += 1
            }
            while ancestors.count > kept {
                ancestors.removeLast().directory.close()
            }
            let directory: FileDescriptor
            do {
                while ancestors.count < parents {
                    let name = Array(components[ancestors.count])
                    ancestors.append((name, try (ancestors.last?.directory ?? root).openSubdirectory(name)))
                }
                directory = try (ancestors.last?.directory ?? root).openSubdirectory(Array(last))
            } catch {
                if error == Errno(ENOTDIR) || error == Errno(ELOOP) {
                    // Replaced (by a link or a file) since fstatat looked: never followed.
                    result.skip(.unreadable, TrackPath(bytes: path), "no longer a folder (changed during the scan); not entered", limit: limits.maximumNotes)
                } else {
                    result.skip(.unreadable, TrackPath(bytes: path), "cannot open the folder: " + error.description, limit: limits.maximumNotes)
                }
                return nil
            }
            // Checked again on the open folder: the entry may have changed since fstatat.
            let opened: FileStatus
            do {
                opened = try directory.status()
            } catch {
                directory.close()
                result.skip(.unreadable, TrackPath(bytes: path), "cannot examine the folder: " + error.description, limit: limits.maximumNotes)
                return nil
            }
            guard opened.device == rootDevice else {
                directory.close()
                result.skip(.otherFileSystem, TrackPath(bytes: path), "another file system is mounted here; not entered", limit: limits.maximumNotes)
                return nil
            }
            do {
                return try DirectoryStream(taking: directory)
            } catch {
                result.skip(.unreadable, TrackPath(bytes: path), "cannot list the folder: " + error.description, limit: limits.maximumNotes)
                return nil
            }
        }

        /// Keeps an MP3 file within `maximumTracks`. Once that many are kept they become a
        /// max-heap in path order, and a file earlier in path order than the last one kept
        /// takes its place: the files kept are the first in path order, whatever the walk's.
        private mutating func keep(_ candidate: LibraryCandidate, into result: inout StickScan) {
            let limit = limits.maximumTracks
            if result.candidates.count < limit {
                result.candidates.append(candidate)
                return
            }
            tracksLeftOut += 1
            guard limit > 0 else { return }
            if !candidatesAreHeap {
                var index = result.candidates.count / 2
                while index > 0 {
                    index -= 1
                    Self.siftDown(&result.candidates, from: index)
                }
                candidatesAreHeap = true
            }
            guard candidate.path < result.candidates[0].path else { return }
            result.candidates[0] = candidate
            Self.siftDown(&result.candidates, from: 0)
        }

        /// Restores the max-heap (by path order) below `index`.
        private static func siftDown(_ heap: inout [LibraryCandidate], from index: Int) {
            var parent = index
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var largest = left
                if left + 1 < heap.count && heap[largest].path < heap[left + 1].path { largest = left + 1 }
                guard heap[parent].path < heap[largest].path else { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }

        /// "folder/name", exactly sized (a big stick keeps thousands of these), or "name" at
        /// the root.
        static func join(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
            var path: [UInt8] = []
            path.reserveCapacity(folder.count + 1 + name.count)
            path.append(contentsOf: folder)
            if !path.isEmpty { path.append(UInt8(ascii: "/")) }
            path.append(contentsOf: name)
            return path
        }
    }

    /// Reads the preferred playlist among the root's regular files named like one
    /// (`Playlist.fileNames` order, then path order); the others get a note.
    private func readPlaylist(_ names: [[UInt8]], in root: FileDescriptor, into result: inout StickScan) {
        guard !names.isEmpty else { return }
        func rank(_ name: [UInt8]) -> Int {
            let folded = TrackPath(bytes: name).caseFolded
            return Playlist.fileNames.firstIndex { TrackPath($0) == folded } ?? Playlist.fileNames.count
        }
        let ordered = names.sorted { rank($0) != rank($1) ? rank($0) < rank($1) : TrackPath(bytes: $0) < TrackPath(bytes: $1) }
        let chosen = ordered[0]
        let shown = TrackPath(bytes: chosen)
        for other in ordered.dropFirst() {
            result.skip(.playlist, TrackPath(bytes: other), "ignored: " + shown.description + " is the playlist used", limit: limits.maximumNotes)
        }
        let file: FileDescriptor
        do {
            file = try root.openEntry(chosen, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        } catch {
            result.skip(.playlist, shown, "cannot open the playlist: " + error.description, limit: limits.maximumNotes)
            return
        }
        defer { file.close() }
        do {
            guard try file.status().kind == .regular else {
                result.skip(.playlist, shown, "the playlist is no longer a regular file; not read", limit: limits.maximumNotes)
                return
            }
            let (bytes, complete) = try file.readAll(limit: limits.maximumPlaylistBytes)
            var contents = bytes
            if !complete {
                // The last line may be cut: drop it.
                while let last = contents.last, last != UInt8(ascii: "\n") && last != UInt8(ascii: "\r") {
                    contents.removeLast()
                }
                result.skip(.playlist, shown, "larger than " + String(limits.maximumPlaylistBytes) + " bytes; only the lines before that were read", limit: limits.maximumNotes)
            }
            result.playlist = Playlist(name: shown.description, contents: contents)
        } catch {
            result.skip(.playlist, shown, "cannot read the playlist: " + error.description, limit: limits.maximumNotes)
        }
    }

    static func isSystemFolder(_ name: [UInt8]) -> Bool {
        let folded = TrackPath(bytes: name).caseFolded
        return systemFolders.contains { TrackPath($0).caseFolded == folded }
    }
}
