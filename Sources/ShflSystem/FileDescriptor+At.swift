import CSystem

// The *at family: opening, creating, renaming and removing entries relative to an open
// directory, so a walk never re-resolves a path from the root (and a renamed or replaced
// parent cannot redirect it). `FileDescriptor.currentDirectory` stands for `AT_FDCWD`.
extension FileDescriptor {
    /// `AT_FDCWD`: relative names resolve against the process's working directory, and
    /// absolute paths work as with the plain calls.
    public static let currentDirectory = FileDescriptor(rawValue: AT_FDCWD)

    /// `openat(2)` of `name` in this directory, with `O_CLOEXEC` added.
    public func openEntry(_ name: [UInt8], _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let result = withCString(name) { path in
            retryingOnInterrupt { shfl_openat(rawValue, path, flags | O_CLOEXEC, mode) }
        }
        return FileDescriptor(rawValue: try result.get())
    }

    /// `openat(2)` of the directory `name` in this directory without following a symbolic
    /// link (`O_DIRECTORY | O_NOFOLLOW`, read-only, non-blocking): fails with `ENOTDIR` for
    /// anything but a real directory, a symbolic link included (Linux checks `O_DIRECTORY`
    /// first; `ELOOP` where it would not).
    public func openSubdirectory(_ name: [UInt8]) throws(Errno) -> FileDescriptor {
        try openEntry(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK)
    }

    /// `mkdirat(2)`.
    public func makeDirectory(_ name: [UInt8], mode: mode_t = 0o755) throws(Errno) {
        let result = withCString(name) { path in
            retryingOnInterrupt { mkdirat(rawValue, path, mode) }
        }
        _ = try result.get()
    }

    /// `renameat(2)` within this directory: atomically replaces `newName` by `oldName`.
    public func renameEntry(_ oldName: [UInt8], to newName: [UInt8]) throws(Errno) {
        let result = withCString(oldName) { old in
            withCString(newName) { new in
                retryingOnInterrupt { renameat(rawValue, old, rawValue, new) }
            }
        }
        _ = try result.get()
    }

    /// `unlinkat(2)` of a file (`directory: false`) or an empty directory (`AT_REMOVEDIR`).
    public func removeEntry(_ name: [UInt8], directory: Bool = false) throws(Errno) {
        let result = withCString(name) { path in
            retryingOnInterrupt { unlinkat(rawValue, path, directory ? AT_REMOVEDIR : 0) }
        }
        _ = try result.get()
    }

    /// `fchmodat(2)` of `name` in this directory (following a symbolic link; Linux has no
    /// mode for links): sets its permission bits to `mode`.
    public func changeMode(_ name: [UInt8], to mode: mode_t) throws(Errno) {
        let result = withCString(name) { path in
            retryingOnInterrupt { fchmodat(rawValue, path, mode, 0) }
        }
        _ = try result.get()
    }

    /// `mkdir -p`: creates `path` and its missing parents with `mkdirat(2)`; an existing
    /// directory is fine.
    public static func makeDirectories(_ path: [UInt8], mode: mode_t = 0o755) throws(Errno) {
        let slash = UInt8(ascii: "/")
        var end = 0
        while end < path.count {
            end += 1
            while end < path.count && path[end] != slash { end += 1 }
            let prefix = Array(path[..<end])
            if prefix.allSatisfy({ $0 == slash }) { continue }
            do {
                try FileDescriptor.currentDirectory.makeDirectory(prefix, mode: mode)
            } catch {
                guard error == Errno(EEXIST) else { throw error }
            }
        }
        let status = try FileDescriptor.currentDirectory.statusOfPath(path)
        guard status.kind == .directory else { throw Errno(ENOTDIR) }
    }

    /// `fstatat(2)` of a path following symbolic links (for directories the caller names).
    func statusOfPath(_ path: [UInt8]) throws(Errno) -> FileStatus {
        var raw = stat()
        let result = withCString(path) { cPath in
            retryingOnInterrupt { fstatat(rawValue, cPath, &raw, 0) }
        }
        _ = try result.get()
        return FileStatus(raw)
    }
}

/// Calls `body` with `bytes` as a NUL-terminated C string. File names are bytes (they need not
/// be UTF-8); a name cannot contain NUL, so one in `bytes` ends the string there.
@inline(__always)
func withCString<Value>(
    _ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Swift.Result<Value, Errno>
) -> Swift.Result<Value, Errno> {
    var terminated = bytes
    terminated.append(0)
    return terminated.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { characters in
            // Never nil: the buffer holds at least the terminating NUL.
            guard let start = characters.baseAddress else { return .failure(Errno(EINVAL)) }
            return body(start)
        }
    }
}
