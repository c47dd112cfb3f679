import ShflCore

extension MediaRules {
    /// USB sticks with one of the file systems the configuration's [media] section accepts.
    /// As in `standard(kernelFilesystems:)`, "ntfs" counts only when the kernel has the ntfs3
    /// driver (`kernelFilesystems`, as /proc/filesystems lists them; `forThisKernel()` reads it).
    public static func configured(_ media: MediaConfiguration, kernelFilesystems: [String]) -> MediaRules {
        var filesystems: [String] = []
        for name in media.filesystems where name != "ntfs" || kernelFilesystems.contains("ntfs3") {
            filesystems.append(name)
        }
        return MediaRules(filesystems: filesystems, buses: ["usb"])
    }
}
