/// Why bytes could not be decoded into a `StickState`, or why a state breaks the rules every
/// saved state must follow (`StickStateCodec.validate(_:)`).
///
/// The `description` is ready for the log, e.g. `line 5: bad cursor "x"`.
public struct StickStateCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem, for code that reacts to it (the message is for people).
    public enum Kind: Hashable, Sendable {
        /// The bytes end before a complete state: empty, no final end of line, or no checksum
        /// line at the end. The usual trace of a write cut short.
        case truncated
        /// The first line is not `shfl-stick-state <version>`: not a state file at all.
        case notAStickState
        /// A state of a format version this build does not read.
        case unsupportedVersion
        /// The checksum line does not match the bytes before it: the content was damaged.
        case checksumMismatch
        /// A line does not have the shape its key requires (wrong number of fields, empty
        /// line, badly formed key).
        case malformedLine
        /// A value does not parse (not a canonical number, bad `%XX` escape, invalid UTF-8).
        case badValue
        /// A scalar key appears twice.
        case duplicateKey
        /// A required key is absent.
        case missingKey
        /// A track appears twice in the shuffle order, or twice in the history.
        case duplicateTrack
        /// A value parses but is outside its range (negative count, cursor beyond the order,
        /// volume above 100).
        case outOfRange
    }

    /// The 1-based line of the encoded state the problem is on, or nil when the problem is not
    /// tied to bytes (found by `StickStateCodec.validate(_:)` on a state in memory). A missing
    /// key is reported on the checksum line, where the file ended without it.
    public var line: Int?
    public var kind: Kind
    /// What was wrong, for people, without the line number.
    public var message: String

    public init(line: Int?, kind: Kind, message: String) {
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// `line N: <message>`, or just the message when there is no line.
    public var description: String {
        guard let line else { return message }
        return "line " + String(line) + ": " + message
    }
}
