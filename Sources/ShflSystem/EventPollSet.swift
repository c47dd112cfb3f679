import CSystem

/// Several file descriptors behind one: an `epoll(7)` instance, which is itself readable in
/// `poll()` while any descriptor added to it is readable. A port that owns several descriptors
/// (libgpiod gives one per requested line) hands the event loop this one descriptor.
///
/// Level-triggered: once the caller has drained every ready descriptor, the set stops being
/// readable. The set never reads the descriptors; its owner does.
public struct EventPollSet: Sendable {
    public let descriptor: FileDescriptor

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    public init() throws(Errno) {
        let raw = try retryingOnInterrupt { epoll_create1(Int32(EPOLL_CLOEXEC)) }.get()
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// Watches `member` for input: `epoll_ctl(EPOLL_CTL_ADD)` with `EPOLLIN`. The member's
    /// number is kept as its tag.
    public func add(_ member: FileDescriptor) throws(Errno) {
        var event = epoll_event()
        event.events = UInt32(EPOLLIN.rawValue)
        event.data.fd = member.rawValue
        _ = try retryingOnInterrupt { epoll_ctl(descriptor.rawValue, EPOLL_CTL_ADD, member.rawValue, &event) }.get()
    }

    /// Stops watching `member` (`epoll_ctl(EPOLL_CTL_DEL)`); a member that was closed is gone
    /// from the set already, so errors are ignored.
    public func remove(_ member: FileDescriptor) {
        var event = epoll_event()
        _ = epoll_ctl(descriptor.rawValue, EPOLL_CTL_DEL, member.rawValue, &event)
    }

    public func close() {
        descriptor.close()
    }
}
