import CSystem

// The stat family: the one place Shfl asks the kernel what a file is.
extension FileDescriptor {
    /// `fstat(2)`: what this open file is.
    public func status() throws(Errno) -> FileStatus {
        var raw = stat()
        _ = try retryingOnInterrupt { fstat(rawValue, &raw) }.get()
        return FileStatus(raw)
    }

    /// `fstatat(2)` with `AT_SYMLINK_NOFOLLOW`: what the entry `name` of this directory is. A
    /// symbolic link is reported as `.symbolicLink`, never followed.
    public func statusOfEntry(_ name: [UInt8]) throws(Errno) -> FileStatus {
        var raw = stat()
        let result = withCString(name) { path in
            retryingOnInterrupt { fstatat(rawValue, path, &raw, AT_SYMLINK_NOFOLLOW) }
        }
        _ = try result.get()
        return FileStatus(raw)
    }
}
