import CSystem
import ShflCore

/// Whole-line writes to the standard streams, with `write(2)` (retried on EINTR and short
/// writes), so that lines from the event loop are never interleaved mid-line.
public enum StandardStreams {
    public static func writeLine(_ line: String, toError: Bool = false) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let descriptor: Int32 = toError ? 2 : 1
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if shfl_errno() == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Writes `<N>text` to standard error: journald reads the priority prefix.
    public static func log(_ message: LogMessage) {
        writeLine(message.description, toError: true)
    }
}

