import Foundation
import ShflCore
import ShflMedia
import ShflSystem
import Testing

/// The mounter against the real kernel, with loop devices standing in for sticks.
@Suite struct SystemMediaMounterTests {
    /// The mount options of `target` from /proc/self/mountinfo (field 6), nil if not mounted.
    static func mountOptions(of target: String) -> [String]? {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count > 5 && fields[4] == target { return fields[5].split(separator: ",").map(String.init) }
        }
        return nil
    }

    @Test func mountPointsAreOneSafeComponentUnderTheRuntimeDirectory() {
        let mounter = SystemMediaMounter(runtimeDirectory: "/run/shfl/media")
        func point(_ uuid: String) -> String {
            mounter.mountPoint(for: StickInfo(source: "/dev/sda1", filesystem: "vfat", id: StickID(uuid: uuid), label: "")).description
        }
        #expect(point("1A2B-3C4D") == "/run/shfl/media/1A2B-3C4D")
        #expect(point("../../etc") == "/run/shfl/media/______etc")
        #expect(point("") == "/run/shfl/media/stick")
        #expect(SystemMediaMounter().runtimeDirectory == "/run/shfl/media")
    }

    @Test func optionsPerFileSystem() {
        #expect(StickFilesystem(udevType: "vfat")?.mountOptions == "utf8,fmask=0022,dmask=0022")
        #expect(StickFilesystem(udevType: "exfat")?.mountOptions == "iocharset=utf8,fmask=0022,dmask=0022")
        #expect(StickFilesystem(udevType: "ext3")?.kernelType == "ext4")
        #expect(StickFilesystem(udevType: "ntfs")?.kernelType == "ntfs3")
        #expect(StickFilesystem(udevType: "iso9660") == nil)
    }

    @Test func anUnsupportedFileSystemIsRefusedBeforeMounting() throws {
        let folder = try MediaTestSupport.temporaryDirectory("mount")
        defer { MediaTestSupport.remove(folder) }
        let mounter = SystemMediaMounter(runtimeDirectory: folder + "/media")
        #expect(throws: DeviceError("cannot mount /dev/sr0 (iso9660): Shfl does not mount this file system (it mounts vfat, exfat, ext4 and ntfs)")) {
            try mounter.mount(StickInfo(source: "/dev/sr0", filesystem: "iso9660", id: StickID(uuid: "X"), label: ""))
        }
    }

    @Test(.enabled(if: MediaTestSupport.isRoot, "mounting needs root"))
    func anExt4StickIsMountedReadOnlyNosuidNodevNoexecAndLetGoLazily() throws {
        let folder = try MediaTestSupport.temporaryDirectory("mount")
        defer { MediaTestSupport.remove(folder) }
        try MediaTestSupport.makeDirectory(folder + "/tree/Album")
        try MediaTestSupport.makeFile(folder + "/tree/Album/one.mp3", "one")
        try MediaTestSupport.makeFile(Array((folder + "/tree/Album/").utf8) + [0xE9] + Array(".mp3".utf8), contents: [2])
        try MediaTestSupport.makeFile(folder + "/tree/run.sh", "#!/bin/sh\necho hi\n")
        chmod(folder + "/tree/run.sh", 0o4755)
        try StickImages.ext4(folder + "/ext4.img", contents: folder + "/tree", uuid: "0d8e2f7c-7b1e-4b0a-9f3e-5a6c1d2e3f40")
        let loop = try LoopDevice(image: folder + "/ext4.img")
        defer { loop.detach() }

        let mounter = SystemMediaMounter(runtimeDirectory: folder + "/run/shfl/media")
        let stick = StickInfo(source: loop.node, filesystem: "ext4", id: StickID(uuid: "0d8e2f7c-7b1e-4b0a-9f3e-5a6c1d2e3f40"), label: "SHFLEXT")
        // A mount left behind by a killed player is detached first.
        let target = mounter.mountPoint(for: stick).description
        try MediaTestSupport.makeDirectory(target)
        try MediaTestSupport.run("mount", ["-t", "tmpfs", "-o", "size=1m", "stale", target])

        let mounted = try mounter.mount(stick)
        defer { try? mounter.unmount(mounted) }
        #expect(mounted.root.description == target)
        let options = try #require(Self.mountOptions(of: target))
        for option in ["ro", "nosuid", "nodev", "noexec", "noatime"] { #expect(options.contains(option), "\(option) in \(options)") }
        let scan = try StickScanner(clock: SystemMonotonicClock()).scan(mounted.root)
        #expect(Set(scan.candidates.map { $0.path }) == [TrackPath("Album/one.mp3"), TrackPath(bytes: Array("Album/".utf8) + [0xE9] + Array(".mp3".utf8))])
        #expect(open(target + "/new.mp3", O_WRONLY | O_CREAT, 0o644) == -1 && errno == EROFS)
        let executed = (try? MediaTestSupport.run(target + "/run.sh", [], check: false))?.status == 0
        #expect(!executed, "noexec: the stick's run.sh must not run")

        // Lazy: a file still open stays readable after the unmount, which removes the mount point.
        let open = try FileDescriptor.open(target + "/Album/one.mp3", O_RDONLY)
        try mounter.unmount(mounted)
        #expect(Self.mountOptions(of: target) == nil)
        #expect(!FileManager.default.fileExists(atPath: target))
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try buffer.withUnsafeMutableBytes { try open.read(into: $0) } == 3)
        open.close()
        try mounter.unmount(mounted)  // twice is harmless
    }

    @Test(.enabled(if: MediaTestSupport.isRoot, "mounting needs root"))
    func aFailedMountNamesTheDeviceAndTheReasonAndLeavesNothing() throws {
        let folder = try MediaTestSupport.temporaryDirectory("mount")
        defer { MediaTestSupport.remove(folder) }
        try StickImages.fat(folder + "/fat.img")
        let loop = try LoopDevice(image: folder + "/fat.img")
        defer { loop.detach() }
        let mounter = SystemMediaMounter(runtimeDirectory: folder + "/media")

        // A FAT stick that claims to be ext4: the kernel refuses it.
        let liar = StickInfo(source: loop.node, filesystem: "ext4", id: StickID(uuid: "1A2B-3C4D"), label: "")
        #expect {
            try mounter.mount(liar)
        } throws: { error in
            (error as? DeviceError)?.message == "cannot mount " + loop.node + " (ext4) at " + folder + "/media/1A2B-3C4D: not a valid ext4 file system: damaged, or not what udev said (EINVAL (Invalid argument))"
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/media/1A2B-3C4D"))

        // The FAT stick as what it is: mounted where the kernel has vfat, else a clear reason.
        let fat = StickInfo(source: loop.node, filesystem: "vfat", id: StickID(uuid: "1A2B-3C4D"), label: "SHFLTEST")
        let kernelHasVFAT = ((try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8)) ?? "").contains("\tvfat\n")
        if kernelHasVFAT {
            let mounted = try mounter.mount(fat)
            #expect(Self.mountOptions(of: mounted.root.description)?.contains("ro") == true)
            try mounter.unmount(mounted)
        } else {
            print("this kernel has no vfat driver: checking the error instead of a FAT mount")
            #expect(throws: DeviceError("cannot mount " + loop.node + " (vfat) at " + folder + "/media/1A2B-3C4D: this kernel has no vfat driver (ENODEV (No such device))", code: ENODEV)) {
                try mounter.mount(fat)
            }
        }

        // A device that is gone.
        let gone = StickInfo(source: folder + "/no-such-device", filesystem: "ext4", id: StickID(uuid: "GONE"), label: "")
        #expect {
            try mounter.mount(gone)
        } throws: { error in
            (error as? DeviceError)?.message.contains(": the device is gone (ENOENT") == true
        }
    }
}
