import CSystem
import ShflCore
import ShflSystem

/// The `MediaMonitor` port over a folder whose subfolders stand for sticks (tests, the demo):
/// `FOLDER/NAME` appearing is a stick with UUID `NAME` arriving, its disappearing the stick
/// leaving. Watched with inotify (`inotify_init1`, `inotify_add_watch`).
///
/// A stick must appear whole: move a prepared folder in (`mv`, a rename within one file
/// system), or link one in (`ln -s`), rather than creating it and filling it afterwards, or the
/// scan may see it half copied. Hidden subfolders are ignored. Pair it with
/// `DirectoryMediaMounter`.
public final class DirectoryMediaMonitor: MediaMonitor {
    public let folder: String
    private let descriptor: FileDescriptor

    /// Watches `folder` (which must exist).
    public init(folder: String) throws(DeviceError) {
        self.folder = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        let raw = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard raw >= 0 else { throw Errno.current.deviceError("inotify for " + folder) }
        descriptor = FileDescriptor(rawValue: raw)
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ONLYDIR | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(raw, self.folder, mask) >= 0 else {
            let error = Errno.current.deviceError("watching " + folder)
            descriptor.close()
            throw error
        }
    }

    deinit {
        descriptor.close()
    }

    public var pollDescriptor: Int32 { descriptor.rawValue }

    public func present() throws(DeviceError) -> [StickInfo] {
        let directory: FileDescriptor
        do {
            directory = try FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY)
        } catch {
            throw error.deviceError("listing " + folder)
        }
        var names: [String] = []
        do throws(Errno) {
            let stream = try DirectoryStream(taking: directory)
            defer { stream.close() }
            while let entry = try stream.next() {
                let name = String(decoding: entry.name, as: UTF8.self)
                if !name.hasPrefix("."), entry.kind == FileStatus.Kind.directory || isFolder(name) { names.append(name) }
            }
        } catch {
            throw error.deviceError("listing " + folder)
        }
        return names.sorted().map(stick(named:))
    }

    public func readEvents(into events: inout [MediaEvent]) throws(DeviceError) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) -> Int in try descriptor.read(into: bytes) }
            }
            let count: Int
            switch result {
            case .success(let read):
                count = read
            case .failure(let error):
                if error == .wouldBlock { return }
                throw error.deviceError("reading inotify events for " + folder)
            }
            guard count > 0 else { return }
            parse(buffer[0..<count], into: &events)
        }
    }

    private func parse(_ bytes: ArraySlice<UInt8>, into events: inout [MediaEvent]) {
        let headerSize = MemoryLayout<inotify_event>.size
        var offset = bytes.startIndex
        while offset + headerSize <= bytes.endIndex {
            var header = inotify_event()
            withUnsafeMutableBytes(of: &header) { raw in
                for index in 0..<headerSize { raw[index] = bytes[offset + index] }
            }
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + Int(header.len), bytes.endIndex)
            var nameBytes = Array(bytes[nameStart..<nameEnd])
            while nameBytes.last == 0 { nameBytes.removeLast() }
            offset = nameEnd
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard !name.isEmpty, !name.hasPrefix(".") else { continue }
            if header.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                // A folder, or a symbolic link to one (the demo plugs a folder in that way).
                if header.mask & UInt32(IN_ISDIR) != 0 || isFolder(name) { events.append(.arrived(stick(named: name))) }
            } else if header.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                events.append(.left(source: folder + "/" + name))
            }
        }
    }

    /// Whether `folder/name` is a directory, following a symbolic link (`stat(2)`).
    private func isFolder(_ name: String) -> Bool {
        var status = stat()
        return stat(folder + "/" + name, &status) == 0 && FileStatus.Kind(mode: status.st_mode) == .directory
    }

    private func stick(named name: String) -> StickInfo {
        StickInfo(source: folder + "/" + name, filesystem: "directory", id: StickID(uuid: name), label: name)
    }
}
