import CSystem

/// One entry of a directory listing: its name as the file system stores it (bytes, not
/// necessarily UTF-8) and the type `readdir` announces.
public struct DirectoryEntry: Hashable, Sendable {
    public var name: [UInt8]
    /// From `d_type`; `.unknown` when the file system does not say (then ask `fstatat`).
    public var kind: FileStatus.Kind

    public init(name: [UInt8], kind: FileStatus.Kind) {
        self.name = name
        self.kind = kind
    }
}

/// Reads the entries of an open directory: `fdopendir(3)`, `readdir(3)`, `closedir(3)`. The
/// one place Shfl lists directories. The owner calls `close()` exactly once.
public struct DirectoryStream {
    private let handle: OpaquePointer
    /// The directory's descriptor, for `openEntry`, `statusOfEntry` and friends; valid until
    /// `close()`, which closes it.
    public let descriptor: FileDescriptor

    /// `fdopendir(3)`: takes ownership of `directory` (an open directory descriptor). On
    /// failure the descriptor is closed.
    public init(taking directory: FileDescriptor) throws(Errno) {
        guard let handle = fdopendir(directory.rawValue) else {
            let error = Errno.current
            directory.close()
            throw error
        }
        self.handle = handle
        self.descriptor = directory
    }

    /// `readdir(3)`: the next entry, without "." and ".."; nil at the end. Entries come in the
    /// file system's order.
    public func next() throws(Errno) -> DirectoryEntry? {
        while true {
            var code: Int32 = 0
            guard let entry = shfl_readdir(handle, &code) else {
                if code == 0 { return nil }
                if code == EINTR { continue }
                throw Errno(code)
            }
            guard let name = shfl_dirent_name(entry) else { continue }
            let length = strlen(name)
            let bytes = UnsafeRawPointer(name).withMemoryRebound(to: UInt8.self, capacity: length) { start in
                Array(UnsafeBufferPointer(start: start, count: length))
            }
            if bytes == [UInt8(ascii: ".")] || bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            return DirectoryEntry(name: bytes, kind: FileStatus.Kind(directoryEntryType: shfl_dirent_type(entry)))
        }
    }

    /// `closedir(3)`: closes the stream and its descriptor.
    public func close() {
        _ = closedir(handle)
    }
}
