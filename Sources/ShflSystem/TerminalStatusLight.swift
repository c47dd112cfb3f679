import CSystem
import ShflCore

/// The `StatusLight` port drawn in a terminal, for the demo: a lamp at the start of the
/// current line of standard error, redrawn in place ("\r"); log lines print over it.
public final class TerminalStatusLight: StatusLight {
    public init() {}

    public func setLit(_ lit: Bool) throws(DeviceError) {
        let lamp = lit ? "\r\u{1B}[1;33m(●)\u{1B}[0m LED " : "\r\u{1B}[2m(○)\u{1B}[0m LED "
        let bytes = Array(lamp.utf8)
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try FileDescriptor(rawValue: 2).writeAll(raw) }
        }
        if case .failure(let error) = result { throw error.deviceError("terminal LED") }
    }
}
