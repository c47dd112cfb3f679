/// The [media] section: where sticks come from, which file systems count as a stick, and how
/// much work a scan may do (SPEC §2: a hostile or huge stick cannot hang the device).
public struct MediaConfiguration: Hashable, Sendable {
    /// File system types accepted on a stick, as udev names them (`ID_FS_TYPE`).
    public static let knownFilesystems = ["vfat", "exfat", "ext2", "ext3", "ext4", "ntfs"]

    public var source: MediaSource
    /// Accepted file system types, udev's names, in the order given. "ntfs" is mounted with the
    /// kernel's ntfs3 driver.
    public var filesystems: [String]
    /// The most folders above a track (ScanLimits.maximumDepth): bounds the nesting walked.
    public var scanDepth: Int
    /// The most names a scan looks at, junk included (ScanLimits.maximumEntries): bounds the
    /// work; a name that is not a folder or an MP3 file is only compared, not kept.
    public var scanEntries: Int
    /// The most folders a scan enters, shallowest first (ScanLimits.maximumFolders): bounds
    /// the paths of the folders waiting to be listed, and the opens.
    public var scanFolders: Int
    /// The most MP3 files a scan keeps to choose from, the first in path order
    /// (ScanLimits.maximumTracks): bounds the scan's memory, one path each.
    public var scanTracks: Int
    /// The longest a scan runs (ScanLimits.timeLimit): bounds the wait on a slow stick.
    public var scanTime: Duration

    public init(
        source: MediaSource = .udev,
        filesystems: [String] = ["vfat", "exfat", "ext4", "ntfs"],
        scanDepth: Int = 8,
        scanEntries: Int = 500_000,
        scanFolders: Int = 10_000,
        scanTracks: Int = 20_000,
        scanTime: Duration = .milliseconds(2_000)
    ) {
        self.source = source
        self.filesystems = filesystems
        self.scanDepth = scanDepth
        self.scanEntries = scanEntries
        self.scanFolders = scanFolders
        self.scanTracks = scanTracks
        self.scanTime = scanTime
    }
}
