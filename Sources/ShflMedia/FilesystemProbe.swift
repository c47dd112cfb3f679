import ShflCore

/// Recognises a stick's file system from its first bytes, as blkid does for udev: the type,
/// the UUID (in blkid's spelling, so a stick has the same identity with or without udevd) and
/// the label. Used when no udevd runs (the "kernel" event source), where events carry no
/// `ID_FS_*` properties. Pure: the caller reads the bytes.
///
/// Knows FAT12/16/32 ("vfat"), exFAT, ext2/3/4 and NTFS. Labels come from the boot sector or
/// superblock only (exFAT and NTFS keep theirs elsewhere: ""). A partition table is no file
/// system: a whole disk with one gives nil, its partitions are probed on their own.
public enum FilesystemProbe {
    /// How many bytes from the start of the device `identify` needs.
    public static let headerSize = 4_096

    /// What was recognised.
    public struct Identity: Hashable, Sendable {
        /// blkid's name: "vfat", "exfat", "ext2", "ext3", "ext4" or "ntfs".
        public var type: String
        public var uuid: String
        public var label: String

        public init(type: String, uuid: String, label: String) {
            self.type = type
            self.uuid = uuid
            self.label = label
        }
    }

    /// The file system whose header `bytes` is (the device's first `headerSize` bytes, or
    /// fewer when it is smaller), or nil.
    public static func identify(_ bytes: [UInt8]) -> Identity? {
        ext(bytes) ?? exfat(bytes) ?? ntfs(bytes) ?? fat(bytes)
    }

    private static func fat(_ bytes: [UInt8]) -> Identity? {
        guard bytes.count >= 512, bytes[510] == 0x55, bytes[511] == 0xAA,
              bytes[0] == 0xEB || bytes[0] == 0xE9
        else { return nil }
        let sectorSize = Int(bytes[11]) | Int(bytes[12]) << 8
        guard [512, 1024, 2048, 4096].contains(sectorSize), bytes[13] != 0 else { return nil }
        // FAT32 keeps its extended fields further in than FAT12/16.
        let serial: Int
        let label: Int
        if matches(bytes, at: 82, "FAT32   ") {
            serial = 67
            label = 71
        } else if matches(bytes, at: 54, "FAT") {
            serial = 39
            label = 43
        } else {
            return nil
        }
        var name = trimmed(Array(bytes[label..<(label + 11)]))
        if name == "NO NAME" { name = "" }
        return Identity(type: "vfat", uuid: serialUUID(bytes, at: serial), label: name)
    }

    private static func exfat(_ bytes: [UInt8]) -> Identity? {
        guard bytes.count >= 512, matches(bytes, at: 3, "EXFAT   ") else { return nil }
        return Identity(type: "exfat", uuid: serialUUID(bytes, at: 100), label: "")
    }

    private static func ntfs(_ bytes: [UInt8]) -> Identity? {
        guard bytes.count >= 512, matches(bytes, at: 3, "NTFS    ") else { return nil }
        var uuid = ""
        for index in (72..<80).reversed() { uuid += hex(bytes[index], uppercase: true) }
        return Identity(type: "ntfs", uuid: uuid, label: "")
    }

    private static func ext(_ bytes: [UInt8]) -> Identity? {
        let base = 1_024
        guard bytes.count >= base + 136, bytes[base + 56] == 0x53, bytes[base + 57] == 0xEF else { return nil }
        let compat = littleEndian32(bytes, at: base + 92)
        let incompat = littleEndian32(bytes, at: base + 96)
        let readOnlyCompat = littleEndian32(bytes, at: base + 100)
        // An external journal device holds no files.
        if incompat & 0x0008 != 0 { return nil }
        // As blkid: ext4 when a feature ext3 lacks is on (beyond filetype, recover and
        // meta_bg; beyond sparse_super, large_file and btree_dir), ext3 with a journal.
        let type: String
        if incompat & ~UInt32(0x0002 | 0x0004 | 0x0010) != 0 || readOnlyCompat & ~UInt32(0x0001 | 0x0002 | 0x0004) != 0 {
            type = "ext4"
        } else if compat & 0x0004 != 0 {
            type = "ext3"
        } else {
            type = "ext2"
        }
        var uuid = ""
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 { uuid += "-" }
            uuid += hex(bytes[base + 104 + index], uppercase: false)
        }
        var name = Array(bytes[(base + 120)..<(base + 136)])
        if let end = name.firstIndex(of: 0) { name.removeSubrange(end...) }
        return Identity(type: type, uuid: uuid, label: String(decoding: name, as: UTF8.self))
    }

    /// A 32-bit volume serial as FAT and exFAT UUIDs are spelled: "1A2B-3C4D".
    private static func serialUUID(_ bytes: [UInt8], at offset: Int) -> String {
        hex(bytes[offset + 3], uppercase: true) + hex(bytes[offset + 2], uppercase: true) + "-"
            + hex(bytes[offset + 1], uppercase: true) + hex(bytes[offset], uppercase: true)
    }

    private static func matches(_ bytes: [UInt8], at offset: Int, _ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard offset + expected.count <= bytes.count else { return false }
        return bytes[offset..<(offset + expected.count)].elementsEqual(expected)
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0) { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    private static func hex(_ byte: UInt8, uppercase: Bool) -> String {
        Hexadecimal.string(UInt64(byte), digits: 2, uppercase ? .uppercase : .lowercase)
    }
}
