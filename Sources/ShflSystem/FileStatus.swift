import CSystem

/// What `fstat(2)` / `fstatat(2)` say about a file, as far as Shfl needs it
/// (see `FileDescriptor+Status.swift`).
public struct FileStatus: Hashable, Sendable {
    /// The file's type (`st_mode & S_IFMT`).
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

        /// The kind of an `st_mode`.
        public init(mode: mode_t) {
            switch shfl_file_type(mode) {
            case UInt32(S_IFREG): self = .regular
            case UInt32(S_IFDIR): self = .directory
            case UInt32(S_IFLNK): self = .symbolicLink
            case UInt32(S_IFIFO): self = .fifo
            case UInt32(S_IFCHR): self = .characterDevice
            case UInt32(S_IFBLK): self = .blockDevice
            case UInt32(S_IFSOCK): self = .socket
            default: self = .unknown
            }
        }

        /// The kind a directory entry's `d_type` announces; `.unknown` for `DT_UNKNOWN` (some
        /// file systems do not say: ask `fstatat`).
        public init(directoryEntryType type: UInt8) {
            switch Int32(type) {
            case Int32(DT_REG): self = .regular
            case Int32(DT_DIR): self = .directory
            case Int32(DT_LNK): self = .symbolicLink
            case Int32(DT_FIFO): self = .fifo
            case Int32(DT_CHR): self = .characterDevice
            case Int32(DT_BLK): self = .blockDevice
            case Int32(DT_SOCK): self = .socket
            default: self = .unknown
            }
        }

        /// "regular file", "FIFO", ... for log lines.
        public var description: String {
            switch self {
            case .regular: "regular file"
            case .directory: "directory"
            case .symbolicLink: "symbolic link"
            case .fifo: "FIFO"
            case .characterDevice: "character device"
            case .blockDevice: "block device"
            case .socket: "socket"
            case .unknown: "file of unknown type"
            }
        }
    }

    public var kind: Kind
    /// Size in bytes (`st_size`).
    public var size: Int64
    /// Last modification, in whole seconds since the Unix epoch (`st_mtim.tv_sec`).
    public var modificationSeconds: Int64
    /// The device holding the file (`st_dev`): it differs across a mount point.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64

    public init(kind: Kind, size: Int64, modificationSeconds: Int64, device: UInt64, inode: UInt64) {
        self.kind = kind
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.device = device
        self.inode = inode
    }

    init(_ raw: stat) {
        self.init(
            kind: Kind(mode: raw.st_mode),
            size: Int64(raw.st_size),
            modificationSeconds: Int64(raw.st_mtim.tv_sec),
            device: UInt64(raw.st_dev),
            inode: UInt64(raw.st_ino)
        )
    }
}
