import CSystem
import ShflSystem

extension MediaRules {
    /// `standard(kernelFilesystems:)` for the running kernel: ntfs counts when /proc/filesystems
    /// lists the ntfs3 driver.
    public static func forThisKernel() -> MediaRules {
        standard(kernelFilesystems: kernelFilesystems())
    }

    /// The file system drivers the running kernel has now, from /proc/filesystems ("ext4",
    /// "vfat", ...); [] when it cannot be read. (A driver built as a module not yet loaded is
    /// missing until something loads it.)
    public static func kernelFilesystems() -> [String] {
        guard let file = try? FileDescriptor.open("/proc/filesystems", O_RDONLY) else { return [] }
        defer { file.close() }
        guard let (bytes, _) = try? file.readAll(limit: 65_536) else { return [] }
        var names: [String] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            // "nodev\tsysfs" or "\text4": the name is the last tab-separated field.
            guard let name = line.split(separator: UInt8(ascii: "\t")).last else { continue }
            names.append(String(decoding: name, as: UTF8.self))
        }
        return names
    }
}
