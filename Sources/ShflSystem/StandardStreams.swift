import CSystem
import ShflCore

/// Whole-line writes to the standard streams (`FileDescriptor.writeAll`: retried on EINTR and
/// short writes), so that lines from the event loop are never interleaved mid-line.
public enum StandardStreams {
    public static func writeLine(_ line: String, toError: Bool = false) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        // A closed or broken stream has nowhere to report to: the line is dropped.
        try? FileDescriptor(rawValue: toError ? 2 : 1).writeAll(bytes)
    }

    /// Writes `<N>text` to standard error: journald reads the priority prefix.
    public static func log(_ message: LogMessage) {
        writeLine(message.description, toError: true)
    }
}

