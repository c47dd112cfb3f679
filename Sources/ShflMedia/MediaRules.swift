import ShflCore

/// Which block devices count as sticks (a config setting): a device counts when it holds a
/// file system of one of `filesystems` and sits on one of `buses`. Partitions and whole-disk
/// file systems ("superfloppies") alike; a disk with a partition table holds no file system
/// itself, so only its partitions count.
public struct MediaRules: Hashable, Sendable, CustomStringConvertible {
    /// File system types as udev and blkid name them (`ID_FS_TYPE`): "vfat", "exfat", "ext4",
    /// "ntfs". `StickFilesystem` says how each is mounted.
    public var filesystems: [String]
    /// Buses as udev names them (`ID_BUS`: "usb", "ata", ...); empty means any bus, which the
    /// tests use for loop devices (they have none).
    public var buses: [String]

    public init(filesystems: [String], buses: [String]) {
        self.filesystems = filesystems
        self.buses = buses
    }

    /// The default: USB sticks with vfat, exfat or ext4, and ntfs when the kernel has the
    /// ntfs3 driver (`kernelFilesystems` lists the drivers, as /proc/filesystems does).
    public static func standard(kernelFilesystems: [String]) -> MediaRules {
        var filesystems = ["vfat", "exfat", "ext4"]
        if kernelFilesystems.contains("ntfs3") { filesystems.append("ntfs") }
        return MediaRules(filesystems: filesystems, buses: ["usb"])
    }

    /// Why a device with this file system type and bus does not count, or nil when it does.
    public func rejection(filesystem: String, bus: String) -> String? {
        if filesystem.isEmpty { return "no file system" }
        if !filesystems.contains(filesystem) {
            return "file system " + filesystem + " is not one of " + MediaRules.list(filesystems)
        }
        if !buses.isEmpty && !buses.contains(bus) {
            return (bus.isEmpty ? "no bus" : "bus " + bus) + " is not one of " + MediaRules.list(buses)
        }
        return nil
    }

    /// "vfat, exfat, ext4 on usb".
    public var description: String {
        MediaRules.list(filesystems) + " on " + (buses.isEmpty ? "any bus" : MediaRules.list(buses))
    }

    private static func list(_ names: [String]) -> String {
        var joined = ""
        for name in names {
            if !joined.isEmpty { joined += ", " }
            joined += name
        }
        return joined
    }
}
