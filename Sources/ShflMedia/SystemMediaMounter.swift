import CSystem
import ShflCore
import ShflSystem

/// The `MediaMounter` port on Linux's `mount(2)`: mounts a stick read-only with `nosuid`,
/// `nodev`, `noexec` and `noatime`, names decoded as UTF-8 (`StickFilesystem` has the
/// options), at `<runtimeDirectory>/<UUID>` (default /run/shfl/media/<UUID>), created as
/// needed. Unmounting is lazy (`MNT_DETACH`), then the empty mount point is removed.
///
/// A mount left behind at that place (the player was killed) is detached first. A failure is
/// reported once with the device, the file system and the reason in words; nothing retries.
/// Needs `CAP_SYS_ADMIN`.
public final class SystemMediaMounter: MediaMounter {
    public static let defaultRuntimeDirectory = "/run/shfl/media"

    public let runtimeDirectory: String

    public init(runtimeDirectory: String = SystemMediaMounter.defaultRuntimeDirectory) {
        self.runtimeDirectory = runtimeDirectory
    }

    /// Where a stick is mounted: the runtime directory and the UUID made safe as one path
    /// component (bytes other than letters, digits, "-" and "_" become "_").
    public func mountPoint(for stick: StickInfo) -> FilePath {
        var name: [UInt8] = []
        for byte in stick.id.uuid.utf8.prefix(64) {
            let safe = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            name.append(safe ? byte : UInt8(ascii: "_"))
        }
        if name.isEmpty { name = Array("stick".utf8) }
        return FilePath(runtimeDirectory).appending(TrackPath(bytes: name))
    }

    public func mount(_ stick: StickInfo) throws(DeviceError) -> MountedStick {
        let what = "cannot mount " + stick.source + " (" + (stick.filesystem.isEmpty ? "unknown file system" : stick.filesystem) + ")"
        guard let filesystem = StickFilesystem(udevType: stick.filesystem) else {
            throw DeviceError(what + ": Shfl does not mount this file system (it mounts vfat, exfat, ext4 and ntfs)")
        }
        let target = mountPoint(for: stick)
        do {
            try FileDescriptor.makeDirectories(target.bytes, mode: 0o755)
        } catch {
            throw error.deviceError(what + ": cannot create the mount point " + target.description)
        }
        // A mount left at this place by a player that was killed would hide the new one.
        try? Mounts.unmount(target.bytes, lazily: true)
        do {
            try Mounts.mount(
                source: Array(stick.source.utf8), target: target.bytes, type: filesystem.kernelType,
                flags: [.readOnly, .noSetUserID, .noDevices, .noExecute, .noAccessTime],
                options: filesystem.mountOptions)
        } catch {
            try? FileDescriptor.currentDirectory.removeEntry(target.bytes, directory: true)
            throw DeviceError(what + " at " + target.description + ": " + SystemMediaMounter.reason(error, filesystem), code: error.code)
        }
        return MountedStick(stick: stick, root: target)
    }

    public func unmount(_ mounted: MountedStick) throws(DeviceError) {
        do {
            try Mounts.unmount(mounted.root.bytes, lazily: true)
        } catch {
            // EINVAL: not a mount point (already unmounted); ENOENT: not even there.
            guard error == Errno(EINVAL) || error == .noEntry else {
                throw error.deviceError("cannot unmount " + mounted.stick.source + " from " + mounted.root.description)
            }
        }
        try? FileDescriptor.currentDirectory.removeEntry(mounted.root.bytes, directory: true)
    }

    /// The usual `mount(2)` failures in words.
    static func reason(_ error: Errno, _ filesystem: StickFilesystem) -> String {
        switch error.code {
        case ENODEV: "this kernel has no " + filesystem.kernelType + " driver (" + error.description + ")"
        case EINVAL: "not a valid " + filesystem.kernelType + " file system: damaged, or not what udev said (" + error.description + ")"
        case EIO: "I/O error reading the stick (" + error.description + ")"
        case EUCLEAN: "the file system is damaged; repair it on a PC (" + error.description + ")"
        case ENOENT, ENXIO, ENOMEDIUM: "the device is gone (" + error.description + ")"
        case EBUSY: "the device is in use (" + error.description + ")"
        case EPERM, EACCES: "not permitted: mounting needs CAP_SYS_ADMIN (" + error.description + ")"
        case ENOTBLK: "not a block device (" + error.description + ")"
        default: error.description
        }
    }
}
