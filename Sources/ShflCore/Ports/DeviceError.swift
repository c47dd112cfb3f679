/// A failure of a device behind a port (GPIO chip, LED line, udev, sound card, file system).
/// The message names the device and what was attempted; `code` is the errno or the C
/// library's own code when there is one, 0 otherwise.
public struct DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var code: Int32

    public init(_ message: String, code: Int32 = 0) {
        self.message = message
        self.code = code
    }

    public var description: String {
        code == 0 ? message : message + " (code " + String(code) + ")"
    }
}
