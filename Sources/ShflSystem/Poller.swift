import CSystem

/// Waits on several file descriptors at once with `poll(2)`: the heart of the event loop.
public struct Poller {
    public private(set) var entries: [pollfd] = []

    public init() {}

    /// Watches `descriptor` for input (POLLIN); returns its index in `entries`.
    @discardableResult
    public mutating func watch(_ descriptor: FileDescriptor) -> Int {
        entries.append(pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0))
        return entries.count - 1
    }

    /// Blocks until one descriptor is ready or `timeoutMilliseconds` pass (-1: no timeout).
    /// Returns the number of ready descriptors (0 on timeout). A signal interrupting the wait
    /// returns 0 rather than waiting again, so the caller re-evaluates its deadlines.
    public mutating func wait(timeoutMilliseconds: Int32 = -1) throws(Errno) -> Int {
        for index in entries.indices { entries[index].revents = 0 }
        let ready = entries.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
        }
        if ready >= 0 { return Int(ready) }
        let error = Errno.current
        if error == .interrupted { return 0 }
        throw error
    }

    /// Whether the descriptor at `index` is readable, or reports an error or hang-up (which a
    /// read will then report).
    public func isReady(_ index: Int) -> Bool {
        entries[index].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
    }
}
