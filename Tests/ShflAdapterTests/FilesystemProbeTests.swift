import Foundation
import ShflMedia
import Testing

/// The probe that identifies a stick without udevd agrees with blkid (udev's source of
/// `ID_FS_*`) on images made by the standard tools, so a stick keeps its identity either way.
@Suite struct FilesystemProbeTests {
    /// blkid's low-level probe of an image: TYPE, UUID, LABEL.
    func blkid(_ image: String) throws -> [String: String] {
        let output = try MediaTestSupport.run("blkid", ["-p", "-o", "export", image]).output
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = parts[1].replacingOccurrences(of: "\\ ", with: " ") }
        }
        return values
    }

    func probe(_ image: String) throws -> FilesystemProbe.Identity? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: image)).prefix(FilesystemProbe.headerSize))
        return FilesystemProbe.identify(bytes)
    }

    @Test(arguments: [
        ("fat12", ["mkfs.vfat", "-i", "1A2B3C4D", "-n", "SHFLTEST"], 8),
        ("fat16", ["mkfs.vfat", "-F", "16", "-i", "DEADBEEF", "-n", "MY MUSIC"], 32),
        ("fat32", ["mkfs.vfat", "-F", "32", "-i", "00C0FFEE"], 64),
        ("ext4", ["mke2fs", "-q", "-F", "-t", "ext4", "-U", "6b0e4f4e-1c1d-4a8e-9a3b-2f9f1c0d7e21", "-L", "Shfl ext"], 16),
        ("ext3", ["mke2fs", "-q", "-F", "-t", "ext3", "-L", "three"], 16),
        ("ext2", ["mke2fs", "-q", "-F", "-t", "ext2"], 16),
        ("exfat", ["mkfs.exfat", "-L", "EXSTICK"], 16),
    ])
    func agreesWithBlkid(name: String, command: [String], megabytes: Int) throws {
        let folder = try MediaTestSupport.temporaryDirectory("probe")
        defer { MediaTestSupport.remove(folder) }
        let image = folder + "/" + name + ".img"
        try MediaTestSupport.run("truncate", ["-s", "\(megabytes)M", image])
        try MediaTestSupport.run(command[0], Array(command.dropFirst()) + [image])

        let expected = try blkid(image)
        let identity = try #require(try probe(image))
        #expect(identity.type == expected["TYPE"])
        #expect(identity.uuid == expected["UUID"])
        if name != "exfat" {  // exFAT keeps its label in the root folder, which is not probed
            #expect(identity.label == (expected["LABEL"] ?? ""))
        }
    }

    @Test func knownSpellings() throws {
        let folder = try MediaTestSupport.temporaryDirectory("probe")
        defer { MediaTestSupport.remove(folder) }
        try StickImages.fat(folder + "/fat.img")
        #expect(try probe(folder + "/fat.img") == FilesystemProbe.Identity(type: "vfat", uuid: "1A2B-3C4D", label: "SHFLTEST"))
    }

    @Test func noFileSystemGivesNil() throws {
        #expect(FilesystemProbe.identify([]) == nil)
        #expect(FilesystemProbe.identify([UInt8](repeating: 0, count: 4_096)) == nil)
        // A partition table (an MBR with one FAT32 partition and its signature) is no file
        // system: its partitions are probed on their own.
        var mbr = [UInt8](repeating: 0, count: 4_096)
        mbr[446 + 4] = 0x0C
        mbr[446 + 8] = 0x00; mbr[446 + 9] = 0x08  // first sector 2048
        mbr[446 + 12] = 0x00; mbr[446 + 13] = 0x40  // 16384 sectors
        mbr[510] = 0x55
        mbr[511] = 0xAA
        #expect(FilesystemProbe.identify(mbr) == nil)
    }
}
