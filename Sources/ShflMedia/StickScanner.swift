import CSystem
import ShflCore
import ShflSystem

/// Walks a mounted stick and finds its MP3 files and its playlist (SPEC §2), within
/// `ScanLimits`; `StickScan.selection` then picks the 120 with the core's `Library`.
///
/// Safe on a hostile stick:
/// - Symbolic links are never followed: entries are examined with `fstatat(AT_SYMLINK_NOFOLLOW)`
///   and folders opened with `openat(O_DIRECTORY | O_NOFOLLOW)` relative to their parent, so
///   nothing outside the stick is reached, and a link loop is just a link.
/// - A folder on another file system (a mount inside the mount) is not entered.
/// - Only regular files count: a FIFO, device node or socket named ".mp3" (or like the
///   playlist) is never opened. The playlist is opened with `O_NOFOLLOW | O_NONBLOCK`, checked
///   again with `fstat`, and read up to `maximumPlaylistBytes`.
/// - Depth, entries and time are bounded; a scan cut short keeps what it found and says so.
/// - Hidden entries (names starting with ".") and Windows' system folders are skipped.
/// - Names are bytes: invalid UTF-8, newlines and 255-byte names are kept exactly.
///
/// The tracks chosen do not depend on the order the file system lists entries in, except when
/// a limit cut the scan short.
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

        var walk = Walk(scanner: self, rootDevice: rootStatus.device, start: start)
        do {
            let stream = try DirectoryStream(taking: try rootDirectory.openSubdirectory(Array(".".utf8)))
            walk.frames.append(Walk.Frame(stream: stream, path: [], depth: 0))
            result.foldersVisited = 1
        } catch {
            throw error.deviceError("cannot list " + root.description)
        }
        walk.run(into: &result)
        readPlaylist(walk.playlistNames, in: rootDirectory, into: &result)
        result.elapsed = clock.now - start
        return result
    }

    /// The state of one walk: the open folders, deepest last.
    private struct Walk {
        struct Frame {
            let stream: DirectoryStream
            /// The folder's path relative to the root, [] for the root.
            let path: [UInt8]
            /// Folders between the root and this one's entries (0 for the root's).
            let depth: Int
        }

        let scanner: StickScanner
        let rootDevice: UInt64
        let start: Instant
        var frames: [Frame] = []
        /// Regular files at the root named like a playlist.
        var playlistNames: [[UInt8]] = []

        init(scanner: StickScanner, rootDevice: UInt64, start: Instant) {
            self.scanner = scanner
            self.rootDevice = rootDevice
            self.start = start
        }

        mutating func run(into result: inout StickScan) {
            let limits = scanner.limits
            defer {
                for frame in frames { frame.stream.close() }
                frames = []
            }
            while let frame = frames.last {
                if result.entriesVisited >= limits.maximumEntries {
                    result.stop = .entryLimit(limits.maximumEntries)
                    return
                }
                if scanner.clock.now - start >= limits.timeLimit {
                    result.stop = .timeLimit(limits.timeLimit)
                    return
                }
                let entry: DirectoryEntry?
                do {
                    entry = try frame.stream.next()
                } catch {
                    result.skip(.unreadable, TrackPath(bytes: frame.path), "cannot list the folder: " + error.description, limit: limits.maximumNotes)
                    entry = nil
                }
                guard let entry else {
                    frame.stream.close()
                    frames.removeLast()
                    continue
                }
                result.entriesVisited += 1
                visit(entry, in: frame, into: &result)
            }
        }

        private mutating func visit(_ entry: DirectoryEntry, in frame: Frame, into result: inout StickScan) {
            let limits = scanner.limits
            let name = entry.name
            // Exactly sized: a big stick keeps thousands of these until the 120 are chosen.
            var pathBytes: [UInt8] = []
            pathBytes.reserveCapacity(frame.path.count + 1 + name.count)
            pathBytes.append(contentsOf: frame.path)
            if !pathBytes.isEmpty { pathBytes.append(UInt8(ascii: "/")) }
            pathBytes.append(contentsOf: name)
            let path = TrackPath(bytes: pathBytes)

            if name.first == UInt8(ascii: ".") {
                result.skip(.hidden, path, "hidden", limit: limits.maximumNotes)
                return
            }
            let isMP3 = path.hasMP3Extension
            let isPlaylistName = frame.depth == 0 && Playlist.isPlaylistFile(TrackPath(bytes: name))
            // Only what may be used is examined further; d_type says enough for the rest.
            var kind = entry.kind
            var status: FileStatus?
            if kind == .unknown || kind == .directory || (kind == .regular && (isMP3 || isPlaylistName)) {
                do {
                    let found = try frame.stream.descriptor.statusOfEntry(name)
                    status = found
                    kind = found.kind
                } catch {
                    result.skip(.unreadable, path, "cannot examine it: " + error.description, limit: limits.maximumNotes)
                    return
                }
            }

            switch kind {
            case .directory:
                enter(name, path: path, in: frame, status: status, into: &result)
            case .regular:
                if isPlaylistName {
                    playlistNames.append(name)
                } else if isMP3 {
                    result.candidates.append(LibraryCandidate(path: path, modified: status?.modificationSeconds ?? 0))
                } else {
                    result.skip(.notMP3, path, "not an MP3 file", limit: limits.maximumNotes)
                }
            case .symbolicLink:
                result.skip(.symbolicLink, path, "symbolic link, not followed", limit: limits.maximumNotes)
            case .fifo, .characterDevice, .blockDevice, .socket, .unknown:
                result.skip(.notRegularFile, path, kind.description + ", not a regular file; not opened", limit: limits.maximumNotes)
            }
        }

        private mutating func enter(
            _ name: [UInt8], path: TrackPath, in frame: Frame, status: FileStatus?, into result: inout StickScan
        ) {
            let limits = scanner.limits
            if StickScanner.isSystemFolder(name) {
                result.skip(.systemFolder, path, "system folder", limit: limits.maximumNotes)
                return
            }
            if let status, status.device != rootDevice {
                result.skip(.otherFileSystem, path, "another file system is mounted here; not entered", limit: limits.maximumNotes)
                return
            }
            if frame.depth + 1 > limits.maximumDepth {
                result.skip(.tooDeep, path, "folder nested deeper than " + String(limits.maximumDepth) + " levels; not entered", limit: limits.maximumNotes)
                return
            }
            let directory: FileDescriptor
            do {
                directory = try frame.stream.descriptor.openSubdirectory(name)
            } catch {
                if error == Errno(ENOTDIR) || error == Errno(ELOOP) {
                    // Replaced (by a link or a file) since fstatat looked: never followed.
                    result.skip(.unreadable, path, "no longer a folder (changed during the scan); not entered", limit: limits.maximumNotes)
                } else {
                    result.skip(.unreadable, path, "cannot open the folder: " + error.description, limit: limits.maximumNotes)
                }
                return
            }
            // Checked again on the open folder: the entry may have changed since fstatat.
            let opened: FileStatus
            do {
                opened = try directory.status()
            } catch {
                directory.close()
                result.skip(.unreadable, path, "cannot examine the folder: " + error.description, limit: limits.maximumNotes)
                return
            }
            guard opened.device == rootDevice else {
                directory.close()
                result.skip(.otherFileSystem, path, "another file system is mounted here; not entered", limit: limits.maximumNotes)
                return
            }
            let stream: DirectoryStream
            do {
                stream = try DirectoryStream(taking: directory)
            } catch {
                result.skip(.unreadable, path, "cannot list the folder: " + error.description, limit: limits.maximumNotes)
                return
            }
            result.foldersVisited += 1
            frames.append(Frame(stream: stream, path: path.bytes, depth: frame.depth + 1))
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
