/// A stick that appeared: where it is and what it is.
public struct StickInfo: Hashable, Sendable, CustomStringConvertible {
    /// The block device ("/dev/sda1"), or, for a directory-backed test source, the directory.
    public var source: String
    /// Filesystem type as udev reports it ("vfat", "exfat", "ext4"), "" if unknown.
    public var filesystem: String
    public var id: StickID
    /// Volume label, "" if none.
    public var label: String

    public init(source: String, filesystem: String, id: StickID, label: String) {
        self.source = source
        self.filesystem = filesystem
        self.id = id
        self.label = label
    }

    public var description: String {
        let name = label.isEmpty ? id.uuid : label + " (" + id.uuid + ")"
        return name + " on " + source + (filesystem.isEmpty ? "" : " [" + filesystem + "]")
    }
}

/// A change in the sticks present.
public enum MediaEvent: Hashable, Sendable {
    case arrived(StickInfo)
    /// The stick at `source` went away (it may never have been reported as arrived).
    case left(source: String)
}

/// Port: stick hot-plug.
///
/// Contract:
/// - `present()` lists the sticks there now (the start-up enumeration, so a stick inserted
///   before boot is found).
/// - `pollDescriptor` becomes readable when events are pending; `readEvents(into:)` never
///   blocks and appends every pending event in order.
/// - Only devices that count as sticks (by the configured bus and filesystem rules) are
///   reported; anything else is filtered out by the adapter.
/// Called from the event-loop thread only.
/// Adapters: `UdevMediaMonitor` (libudev), `SimulatedMediaMonitor`.
public protocol MediaMonitor: AnyObject {
    var pollDescriptor: Int32 { get }
    func present() throws(DeviceError) -> [StickInfo]
    func readEvents(into events: inout [MediaEvent]) throws(DeviceError)
}
