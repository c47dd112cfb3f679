import CUdev

/// Where a `UdevMediaMonitor` hears about devices.
public enum UdevEventSource: Hashable, Sendable, CustomStringConvertible {
    /// systemd-udevd's events, sent after its rules ran: they carry `ID_FS_TYPE`,
    /// `ID_FS_UUID`, `ID_FS_LABEL` and `ID_BUS`. The normal case.
    case udev
    /// The kernel's own uevents, for systems where no udevd runs: they carry no file system
    /// properties, so the monitor reads each device's first bytes (`FilesystemProbe`) and
    /// finds the bus in sysfs. Needs read access to the block devices.
    case kernel

    /// `.udev` when systemd-udevd runs (its control socket exists, which is how libudev's
    /// `udev_queue_get_udev_is_active` tells), else `.kernel`.
    public static func automatic() -> UdevEventSource {
        guard let context = udev_new() else { return .kernel }
        defer { udev_unref(context) }
        guard let queue = udev_queue_new(context) else { return .kernel }
        defer { udev_queue_unref(queue) }
        return udev_queue_get_udev_is_active(queue) > 0 ? .udev : .kernel
    }

    /// The netlink group name libudev takes: "udev" or "kernel".
    public var description: String {
        switch self {
        case .udev: "udev"
        case .kernel: "kernel"
        }
    }
}
