/// Severity of a log line, numbered as syslog priorities (journald reads "<N>" prefixes).
public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    /// More severe sorts first: `.error < .debug`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }
}

/// One line for the log, produced by the pure core and written by the shell.
public struct LogMessage: Hashable, Sendable, CustomStringConvertible {
    public var level: LogLevel
    public var text: String

    public init(_ level: LogLevel, _ text: String) {
        self.level = level
        self.text = text
    }

    public var description: String {
        "<" + String(level.rawValue) + ">" + text
    }
}
