/// Splits a byte stream into lines, holding at most `limit` bytes of an unfinished line: the
/// per-client input buffer of the control server, and the client's reply reader.
public struct ControlLineBuffer: Sendable {
    /// A complete line (without its "\n"), or the notice that a line grew past the limit.
    public enum Line: Hashable, Sendable {
        case complete([UInt8])
        /// More than `limit` bytes came without a "\n". Reported once, as soon as it is
        /// known (not when the "\n" finally comes); the rest of that line is dropped.
        case tooLong
    }

    /// The most bytes a line may have before its "\n".
    public let limit: Int
    /// The unfinished line so far (never more than `limit` bytes).
    public private(set) var pending: [UInt8] = []
    /// True while dropping the rest of a line that was too long.
    public private(set) var isSkipping = false

    public init(limit: Int) {
        self.limit = limit
    }

    /// True when bytes of an unfinished line are held.
    public var hasPartialLine: Bool { !pending.isEmpty || isSkipping }

    /// Adds received bytes; returns the lines they complete, in order.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) -> [Line] where Bytes.Element == UInt8 {
        var lines: [Line] = []
        for byte in bytes {
            if byte == 0x0A {
                if isSkipping {
                    isSkipping = false
                } else {
                    lines.append(.complete(pending))
                }
                pending.removeAll(keepingCapacity: true)
            } else if !isSkipping {
                if pending.count == limit {
                    lines.append(.tooLong)
                    isSkipping = true
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(byte)
                }
            }
        }
        return lines
    }
}
