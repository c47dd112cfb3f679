/// Where the daemon hears about sticks (the [media] `source` key).
public enum MediaSource: Hashable, Sendable, CustomStringConvertible {
    /// USB block devices announced by systemd-udevd; where no udevd runs, the kernel's own
    /// events (the file system then read from the device). The product's source.
    case udev
    /// The kernel's own events only, even where udevd runs.
    case kernel
    /// A folder whose subfolders stand for sticks: adding one inserts a stick, removing it
    /// pulls it (end-to-end tests and the demo).
    case directory(String)

    /// The config spelling: "udev", "kernel" or "directory:PATH".
    public var description: String {
        switch self {
        case .udev: "udev"
        case .kernel: "kernel"
        case .directory(let path): "directory:" + path
        }
    }
}
