import ShflCore

/// Names one connection to the control socket. Serial numbers are never reused by a server,
/// so a reply to a client that has gone cannot reach a newer one on the same descriptor.
public struct ControlClientID: Hashable, Sendable, CustomStringConvertible {
    public let serial: UInt64

    public init(serial: UInt64) {
        self.serial = serial
    }

    public var description: String { "client " + String(serial) }
}

/// One request line from one client, parsed or refused. Each needs exactly one
/// `UnixControlServer.reply(_:to:)`, in the order they came.
public struct ControlMessage: Sendable {
    public let client: ControlClientID
    public let request: Result<ControlRequest, ControlError>

    public init(client: ControlClientID, request: Result<ControlRequest, ControlError>) {
        self.client = client
        self.request = request
    }
}
