import CSystem
import ShflCore

/// A C library error number (the value of `errno` after a failed call), as a typed error.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int32

    public init(_ code: Int32) {
        self.code = code
    }

    /// The calling thread's current `errno`.
    public static var current: Errno {
        Errno(shfl_errno())
    }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noEntry = Errno(ENOENT)
    public static let accessDenied = Errno(EACCES)
    public static let notPermitted = Errno(EPERM)
    public static let busy = Errno(EBUSY)

    /// "ENOENT (No such file or directory)".
    public var description: String {
        let name = shfl_errno_name(code).map { String(cString: $0) } ?? ("errno " + String(code))
        guard let text = shfl_errno_description(code) else { return name }
        return name + " (" + String(cString: text) + ")"
    }

    /// A `DeviceError` saying what failed: "`what`: ENOENT (No such file or directory)".
    public func deviceError(_ what: String) -> DeviceError {
        DeviceError(what + ": " + description, code: code)
    }
}

/// Calls `body` until it does not fail with EINTR; a negative result is returned as the
/// thread's `errno`. The one place where syscalls are retried after a signal.
@inline(__always)
public func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) -> Swift.Result<Result, Errno> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        let error = Errno.current
        if error != .interrupted { return .failure(error) }
    }
}
