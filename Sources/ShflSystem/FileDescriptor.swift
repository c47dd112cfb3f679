import CSystem

/// An open file descriptor. A value type over the raw number, like swift-system's: the owner
/// closes it exactly once with `close()`. Every call retries on EINTR and throws `Errno`.
public struct FileDescriptor: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public var description: String { "fd " + String(rawValue) }

    /// `open(2)` with `O_CLOEXEC` added. `path` is raw bytes (file names need not be UTF-8).
    public static func open(_ path: [UInt8], _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        var terminated = path
        terminated.append(0)
        let result = terminated.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                retryingOnInterrupt { () -> Int32 in
                    guard let start = characters.baseAddress else { return -1 }
                    return shfl_open(start, flags | O_CLOEXEC, mode)
                }
            }
        }
        return FileDescriptor(rawValue: try result.get())
    }

    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        try open(Array(path.utf8), flags, mode: mode)
    }

    /// `read(2)` into `buffer`; returns the bytes read (0 at end of file).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { CSystem.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// `write(2)` of all of `buffer`, continuing after short writes.
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let written = try retryingOnInterrupt {
                CSystem.write(rawValue, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }.get()
            offset += written
        }
    }

    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try writeAll(buffer) }
        }
        try result.get()
    }

    /// `fsync(2)`: the data is on the medium when it returns.
    public func sync() throws(Errno) {
        _ = try retryingOnInterrupt { fsync(rawValue) }.get()
    }

    /// Sets or clears `O_NONBLOCK`.
    public func setNonBlocking(_ enabled: Bool) throws(Errno) {
        let flags = try retryingOnInterrupt { shfl_fcntl_getfl(rawValue) }.get()
        let wanted = enabled ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        _ = try retryingOnInterrupt { shfl_fcntl_setfl(rawValue, wanted) }.get()
    }

    /// `close(2)`. Not retried on EINTR: on Linux the descriptor is released even then.
    public func close() {
        _ = CSystem.close(rawValue)
    }
}
