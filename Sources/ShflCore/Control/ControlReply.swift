/// The reply to one control request. The protocol, reply side (UTF-8, every line ends in "\n"):
///
///     key: value          zero or more fields
///     ok                  the final line of a successful reply
///
/// or, for a refused or failed request,
///
///     error: <reason>     the final line (no fields before it)
///
/// A client reads lines until one is exactly `ok` or starts with `error: `; that line ends
/// the reply, and the next reply (to the next request) starts after it. No field line can
/// look like a final line: keys are lower-case letters, digits and "-", never "error", and
/// are always followed by ": ". Values are one line: control characters (a "\n" in a track
/// title, say) are shown as "?", and a value is cut to `maximumValueBytes` ("…" at the cut).
///
/// Example, `status` while playing:
///
///     state: playing
///     track: Blue in Green — Miles Davis
///     position: 1:23
///     shuffle: 12/47
///     tracks: 47/120
///     stick: MUSIC (1A2B-3C4D)
///     volume: 40
///     underruns: 0
///     ok
public struct ControlReply: Hashable, Sendable, CustomStringConvertible {
    /// One `key: value` line.
    public struct Field: Hashable, Sendable, CustomStringConvertible {
        public let key: String
        public let value: String

        /// `key` is normalized to lower-case ASCII letters, digits and "-" (anything else
        /// becomes "-"; "error" becomes "error-detail", an empty key "field"); `value` is
        /// made one printable line of at most `maximumValueBytes`.
        public init(_ key: String, _ value: String) {
            self.key = Field.normalizedKey(key)
            self.value = ControlText.oneLine(value, maximumBytes: ControlReply.maximumValueBytes)
        }

        /// "key: value", without the "\n".
        public var description: String { key + ": " + value }

        static func normalizedKey(_ key: String) -> String {
            var normalized = ""
            for scalar in key.unicodeScalars {
                let value = scalar.value
                if value >= 0x41 && value <= 0x5A, let lower = Unicode.Scalar(value + 32) {
                    normalized.unicodeScalars.append(lower)
                } else if (value >= 0x61 && value <= 0x7A) || (value >= 0x30 && value <= 0x39) || value == 0x2D {
                    normalized.unicodeScalars.append(scalar)
                } else {
                    normalized.unicodeScalars.append("-")
                }
            }
            if normalized.isEmpty { return "field" }
            if normalized == "error" { return "error-detail" }
            return normalized
        }
    }

    /// How the reply ends.
    public enum Outcome: Hashable, Sendable, CustomStringConvertible {
        case ok
        /// The reason, one printable line.
        case error(String)

        /// The final line, without the "\n": "ok" or "error: <reason>".
        public var description: String {
            switch self {
            case .ok: "ok"
            case .error(let reason): "error: " + reason
            }
        }
    }

    /// The longest value, in UTF-8 bytes (so one reply stays small: a few hundred bytes).
    public static let maximumValueBytes = 400

    public var fields: [Field]
    public var outcome: Outcome

    /// A successful reply with these fields.
    public init(fields: [Field] = []) {
        self.fields = fields
        self.outcome = .ok
    }

    /// A failed reply; `reason` is made one printable line.
    public init(error reason: String) {
        self.fields = []
        self.outcome = .error(ControlText.oneLine(reason, maximumBytes: ControlReply.maximumValueBytes))
    }

    /// The reply to a refused request line.
    public init(error: ControlError) {
        self.init(error: error.description)
    }

    /// A reply as a client read it (`ControlReplyReader`), the reason as received.
    init(receivedFields fields: [Field], outcome: Outcome) {
        self.fields = fields
        self.outcome = outcome
    }

    public var isOK: Bool { outcome == .ok }

    /// The reply as sent: every line with its "\n".
    public var text: String {
        var text = ""
        for field in fields { text += field.description + "\n" }
        return text + outcome.description + "\n"
    }

    public var bytes: [UInt8] { Array(text.utf8) }

    public var description: String { text }
}
