import CSystem

/// Signals as a file descriptor (`signalfd(2)`): the signals are blocked for the calling
/// thread and instead become readable in the event loop's `poll()`, so a Ctrl-C or a
/// `systemctl stop` ends the loop cleanly (LED off, lines released) instead of killing it.
///
/// Create it on the main thread before starting other threads: they inherit the blocked mask,
/// so the signal is never delivered to one of them instead.
public struct SignalDescriptor: Sendable {
    public let descriptor: FileDescriptor

    /// Blocks `signals` (`pthread_sigmask(SIG_BLOCK)`) and opens
    /// `signalfd(-1, mask, SFD_NONBLOCK | SFD_CLOEXEC)` for them.
    public init(_ signals: [Int32]) throws(Errno) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        let blocked = pthread_sigmask(SIG_BLOCK, &mask, nil)
        if blocked != 0 { throw Errno(blocked) }
        let raw = try retryingOnInterrupt { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }.get()
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// The next pending signal's number, or nil when none is pending (`read(2)` of one
    /// `signalfd_siginfo`).
    public func next() -> Int32? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        if case .success(let count) = retryingOnInterrupt({ read(descriptor.rawValue, &info, size) }), count == size {
            return Int32(bitPattern: info.ssi_signo)
        }
        return nil
    }

    public func close() {
        descriptor.close()
    }
}
