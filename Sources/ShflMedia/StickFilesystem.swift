/// A file system Shfl mounts from a stick, and how (SPEC §9: read-only, nosuid, nodev,
/// noexec; names in UTF-8).
public enum StickFilesystem: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case vfat, exfat, ext4, ntfs

    /// The file system udev / blkid names `type` (`ID_FS_TYPE`); ext2 and ext3 are mounted by
    /// the ext4 driver. Nil for anything else.
    public init?(udevType type: String) {
        switch type {
        case "vfat": self = .vfat
        case "exfat": self = .exfat
        case "ext4", "ext3", "ext2": self = .ext4
        case "ntfs": self = .ntfs
        default: return nil
        }
    }

    /// The kernel driver `mount(2)` is given.
    public var kernelType: String {
        switch self {
        case .vfat: "vfat"
        case .exfat: "exfat"
        case .ext4: "ext4"
        case .ntfs: "ntfs3"
        }
    }

    /// The driver's options. FAT-like file systems have no owners or permissions on disk:
    /// the masks make every file readable by the (unprivileged) player whatever the mounting
    /// process's umask, and names are decoded as UTF-8 (`utf8` for vfat, which recommends it
    /// over `iocharset=utf8`; `iocharset=utf8` for exfat and ntfs3). ext4 keeps the stick's
    /// own permissions.
    public var mountOptions: String {
        switch self {
        case .vfat: "utf8,fmask=0022,dmask=0022"
        case .exfat: "iocharset=utf8,fmask=0022,dmask=0022"
        case .ext4: ""
        case .ntfs: "iocharset=utf8,fmask=0022,dmask=0022"
        }
    }

    public var description: String { kernelType }
}
