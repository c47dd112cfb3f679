import ShflCore

/// The `MediaMounter` port where a stick's `source` already is a directory holding its files
/// (tests, the demo, and the event loop's tests with a directory-backed `MediaMonitor`):
/// mounting returns that directory, unmounting does nothing. Records what it was asked, and
/// can fail a mount for tests of the error path.
public final class DirectoryMediaMounter: MediaMounter {
    /// Sticks mounted and not yet unmounted, in mount order.
    public private(set) var mounted: [MountedStick] = []
    /// Every successful mount and unmount, for tests: "mount <source>", "unmount <source>".
    public private(set) var journal: [String] = []
    private var failures: [String: String] = [:]

    public init() {}

    /// Makes mounting the stick at `source` fail with `reason` (until `clearFailure`).
    public func failMount(of source: String, reason: String) {
        failures[source] = reason
    }

    public func clearFailure(of source: String) {
        failures[source] = nil
    }

    public func mount(_ stick: StickInfo) throws(DeviceError) -> MountedStick {
        if let reason = failures[stick.source] {
            throw DeviceError("cannot mount " + stick.source + ": " + reason)
        }
        let result = MountedStick(stick: stick, root: FilePath(stick.source))
        mounted.append(result)
        journal.append("mount " + stick.source)
        return result
    }

    public func unmount(_ stick: MountedStick) throws(DeviceError) {
        guard let index = mounted.firstIndex(of: stick) else { return }
        mounted.remove(at: index)
        journal.append("unmount " + stick.stick.source)
    }
}
