import CSystem

/// A counter another thread can bump to wake the event loop: an `eventfd(2)`, readable in
/// `poll()` while its count is above zero. `notify()` never blocks and never allocates, so the
/// real-time audio thread may call it.
public struct EventNotifier: Sendable {
    public let descriptor: FileDescriptor

    /// `eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)`.
    public init() throws(Errno) {
        let raw = try retryingOnInterrupt { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }.get()
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// Adds one to the count (wakes a `poll()` on `descriptor`).
    public func notify() {
        var one: UInt64 = 1
        _ = retryingOnInterrupt { write(descriptor.rawValue, &one, 8) }
    }

    /// Takes the count, resetting it to zero; 0 when nothing was notified.
    public func drain() -> UInt64 {
        var count: UInt64 = 0
        switch retryingOnInterrupt({ read(descriptor.rawValue, &count, 8) }) {
        case .success(8): return count
        default: return 0
        }
    }

    public func close() {
        descriptor.close()
    }
}
