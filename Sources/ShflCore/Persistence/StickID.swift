/// A stick's identity: its filesystem UUID (udev's `ID_FS_UUID`, e.g. "1A2B-3C4D").
public struct StickID: Hashable, Sendable, CustomStringConvertible {
    public var uuid: String

    public init(uuid: String) {
        self.uuid = uuid
    }

    public var description: String { uuid }
}
