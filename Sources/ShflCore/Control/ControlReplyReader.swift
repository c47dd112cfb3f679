/// Reads one reply from the bytes a client receives (the format is in `ControlReply`).
public struct ControlReplyReader: Sendable {
    /// The longest reply line a client accepts, in bytes (values are at most 400 bytes).
    public static let maximumLineLength = 4_096
    /// The most fields a client accepts in one reply.
    public static let maximumFields = 64

    private var lines = ControlLineBuffer(limit: ControlReplyReader.maximumLineLength)
    private var fields: [ControlReply.Field] = []

    public init() {}

    /// Adds received bytes; returns the reply once its final line has come (later bytes are
    /// ignored), nil while more is needed. Throws on a line that is not part of the format.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) throws(ControlReplyError) -> ControlReply? where Bytes.Element == UInt8 {
        for line in lines.append(bytes) {
            guard case .complete(let bytes) = line else { throw .lineTooLong(limit: ControlReplyReader.maximumLineLength) }
            let text = String(decoding: bytes, as: UTF8.self)
            if text == "ok" { return ControlReply(receivedFields: fields, outcome: .ok) }
            if text.hasPrefix("error: ") {
                return ControlReply(receivedFields: fields, outcome: .error(String(text.dropFirst(7))))
            }
            guard let separator = bytes.firstIndex(of: UInt8(ascii: ":")),
                  separator > 0, separator + 1 < bytes.count, bytes[separator + 1] == UInt8(ascii: " ") else {
                throw .malformedLine(ControlText.oneLine(text, maximumBytes: 80))
            }
            guard fields.count < ControlReplyReader.maximumFields else { throw .tooManyFields(limit: ControlReplyReader.maximumFields) }
            fields.append(ControlReply.Field(
                String(decoding: bytes[..<separator], as: UTF8.self),
                String(decoding: bytes[(separator + 2)...], as: UTF8.self)
            ))
        }
        return nil
    }
}

/// Why received bytes are not a reply.
public enum ControlReplyError: Error, Hashable, Sendable, CustomStringConvertible {
    case lineTooLong(limit: Int)
    case tooManyFields(limit: Int)
    /// A line that is neither `key: value`, `ok` nor `error: <reason>`.
    case malformedLine(String)

    public var description: String {
        switch self {
        case .lineTooLong(let limit): "a reply line longer than " + String(limit) + " bytes"
        case .tooManyFields(let limit): "a reply with more than " + String(limit) + " lines"
        case .malformedLine(let line): "a malformed reply line '" + line + "'"
        }
    }
}
