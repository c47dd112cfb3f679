/// Something wrong, or worth knowing, about a configuration file: where (file, line), which
/// key, and what — ending with what the player does instead (the key keeps its default, or
/// the value it had). E.g. "/boot/firmware/shfl.ini:12: [audio] buffer-time: expected a
/// duration from 10ms to 2s with its unit (us, ms or s), not '200'; using the default 200ms".
public struct ConfigurationProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// A value the key does not take.
        case badValue
        /// A key the section does not have, or a key outside any section.
        case unknownKey
        /// A section Shfl does not have (reported once, at its first key).
        case unknownSection
        /// A key given twice; the later line counts (a notice).
        case duplicateKey
        /// Values of two keys that do not fit together.
        case conflict
        /// A line that is not `key = value`, a `[section]` heading, a comment or blank.
        case syntax
        /// The file as a whole: missing (a notice), unreadable, too big.
        case file
    }

    public var kind: Kind
    /// `.warning` for a problem, `.notice` for the missing file and duplicate keys.
    public var level: LogLevel
    public var file: String
    /// 1-based, as an editor numbers lines; nil for the file as a whole.
    public var line: Int?
    /// "[audio] buffer-time", when the problem is about one key.
    public var key: String?
    /// What is wrong and what happens instead (starts with the key, when there is one).
    public var message: String

    public init(_ kind: Kind, _ level: LogLevel = .warning, file: String, line: Int?, key: String? = nil, _ message: String) {
        self.kind = kind
        self.level = level
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// "FILE:LINE: message", or "FILE: message".
    public var description: String {
        guard let line else { return file + ": " + message }
        return file + ":" + String(line) + ": " + message
    }

    /// The log line: "<4>config: FILE:LINE: message".
    public var logMessage: LogMessage {
        LogMessage(level, "config: " + description)
    }
}
