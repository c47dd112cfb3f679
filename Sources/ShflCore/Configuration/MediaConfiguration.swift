/// The [media] section: where sticks come from, which file systems count as a stick, and how
/// much work a scan may do (SPEC §2: a hostile or huge stick cannot hang the device).
public struct MediaConfiguration: Hashable, Sendable {
    /// File system types accepted on a stick, as udev names them (`ID_FS_TYPE`).
    public static let knownFilesystems = ["vfat", "exfat", "ext2", "ext3", "ext4", "ntfs"]

    public var source: MediaSource
    /// Accepted file system types, udev's names, in the order given. "ntfs" is mounted with the
    /// kernel's ntfs3 driver.
    public var filesystems: [String]
    /// The most folders above a track (ScanLimits.maximumDepth).
    public var scanDepth: Int
    /// The most directory entries a scan looks at (ScanLimits.maximumEntries).
    public var scanEntries: Int
    /// The longest a scan runs (ScanLimits.timeLimit).
    public var scanTime: Duration

    public init(
        source: MediaSource = .udev,
        filesystems: [String] = ["vfat", "exfat", "ext4", "ntfs"],
        scanDepth: Int = 8,
        scanEntries: Int = 20_000,
        scanTime: Duration = .milliseconds(2_000)
    ) {
        self.source = source
        self.filesystems = filesystems
        self.scanDepth = scanDepth
        self.scanEntries = scanEntries
        self.scanTime = scanTime
    }
}
