import CSystem
import ShflCore
import ShflSystem

/// Tells systemd how the service is doing, with the documented `sd_notify` protocol
/// (sd_notify(3), "Notify socket protocol"): each message is one datagram of
/// newline-separated `KEY=value` assignments, sent to the `AF_UNIX` socket named by
/// `NOTIFY_SOCKET` (a path, or "@name" in the abstract namespace). With `Type=notify`,
/// `READY=1` ends start-up; with `WatchdogSec=`, `WATCHDOG=1` must come at least every
/// `watchdogInterval` (send it every `watchdogPingInterval`, half of it, as sd_watchdog_enabled(3)
/// advises) or systemd kills and restarts the service.
///
/// Without `NOTIFY_SOCKET` (run by hand, or in a test) every call does nothing. The socket is
/// non-blocking: if systemd's queue is full a message is dropped (the call throws EAGAIN)
/// rather than stalling the event loop.
public final class SystemdNotifier {
    /// Where messages go; nil when not run by systemd.
    public let address: UnixSocketAddress?
    /// `WATCHDOG_USEC`, when it is set for this process (`WATCHDOG_PID` unset or ours).
    public let watchdogInterval: Duration?
    private let socket: FileDescriptor?

    /// A notifier that does nothing (no systemd).
    public init() {
        address = nil
        watchdogInterval = nil
        socket = nil
    }

    /// A notifier for these values of `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID`
    /// (`processID` is ours, to compare with `WATCHDOG_PID`). Throws when `NOTIFY_SOCKET` is
    /// set but unusable: neither an absolute path nor "@name", too long, or no socket.
    public init(notifySocket: String?, watchdogMicroseconds: String?, watchdogPID: String?, processID: Int32) throws(DeviceError) {
        guard let notifySocket, !notifySocket.isEmpty else {
            address = nil
            watchdogInterval = nil
            socket = nil
            return
        }
        guard notifySocket.hasPrefix("/") || notifySocket.hasPrefix("@"), let address = UnixSocketAddress(notifySocket) else {
            throw DeviceError("NOTIFY_SOCKET=" + notifySocket + ": not an absolute path or @name of at most 107 bytes", code: EINVAL)
        }
        do {
            socket = try FileDescriptor.socket(.datagram, nonBlocking: true)
        } catch {
            throw error.deviceError("NOTIFY_SOCKET=" + notifySocket + ": socket")
        }
        self.address = address
        self.watchdogInterval = SystemdNotifier.watchdogInterval(microseconds: watchdogMicroseconds, pid: watchdogPID, processID: processID)
    }

    /// The notifier the environment asks for (`NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`).
    public static func fromEnvironment() throws(DeviceError) -> SystemdNotifier {
        try SystemdNotifier(
            notifySocket: environment("NOTIFY_SOCKET"),
            watchdogMicroseconds: environment("WATCHDOG_USEC"),
            watchdogPID: environment("WATCHDOG_PID"),
            processID: getpid()
        )
    }

    deinit {
        socket?.close()
    }

    /// True when run by systemd (messages are sent).
    public var isEnabled: Bool { socket != nil }

    /// How often the event loop should call `watchdog()`: half of `watchdogInterval`; nil
    /// when systemd watches nothing.
    public var watchdogPingInterval: Duration? {
        watchdogInterval.map { $0 / 2 }
    }

    /// `READY=1`, with the first `STATUS=` in the same message if given.
    public func ready(status: String? = nil) throws(Errno) {
        try send("READY=1" + SystemdNotifier.statusLine(status))
    }

    /// `STATUS=text`: the line `systemctl status shfl` shows ("Playing 12/120: Title — Artist").
    /// Control characters in `text` become spaces (a newline would start another assignment).
    public func status(_ text: String) throws(Errno) {
        try send(SystemdNotifier.statusAssignment(text))
    }

    /// `WATCHDOG=1`: the event loop is alive.
    public func watchdog() throws(Errno) {
        try send("WATCHDOG=1")
    }

    /// `RELOADING=1`, before re-reading the configuration; send `ready()` when done.
    public func reloading(status: String? = nil) throws(Errno) {
        try send("RELOADING=1" + SystemdNotifier.statusLine(status))
    }

    /// `STOPPING=1`, when shutting down.
    public func stopping(status: String? = nil) throws(Errno) {
        try send("STOPPING=1" + SystemdNotifier.statusLine(status))
    }

    /// Sends `assignments` ("KEY=value" lines separated by "\n") as one datagram; nothing
    /// without `NOTIFY_SOCKET`.
    public func send(_ assignments: String) throws(Errno) {
        guard let socket, let address else { return }
        _ = try socket.sendDatagram(Array(assignments.utf8), to: address)
    }

    // MARK: - Parsing the environment

    /// `WATCHDOG_USEC` as a duration when it applies to `processID` (sd_watchdog_enabled(3)):
    /// a positive decimal number of microseconds, and `WATCHDOG_PID` unset or equal to
    /// `processID`.
    static func watchdogInterval(microseconds: String?, pid: String?, processID: Int32) -> Duration? {
        guard let microseconds, let value = decimal(microseconds), value > 0 else { return nil }
        if let pid {
            guard let owner = decimal(pid), owner == UInt64(max(processID, 0)) else { return nil }
        }
        return .microseconds(Int64(min(value, UInt64(Int64.max / 1_000))))
    }

    /// Only digits, no sign, no overflow.
    static func decimal(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.count <= 19 else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + UInt64(byte - 0x30)
        }
        return value
    }

    static func statusLine(_ status: String?) -> String {
        guard let status else { return "" }
        return "\n" + statusAssignment(status)
    }

    static func statusAssignment(_ text: String) -> String {
        var clean = ""
        for scalar in text.unicodeScalars {
            clean.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
        }
        return "STATUS=" + clean
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
