import CSystem
import Foundation
import ShflCore
import ShflMedia
import ShflSystem
import Testing

/// The directory, stat, *at and mount wrappers of ShflSystem against the real syscalls.
@Suite struct FileSystemWrapperTests {
    @Test func directoryStreamsListRawNamesWithTheirKinds() throws {
        let folder = try MediaTestSupport.temporaryDirectory("dir")
        defer { MediaTestSupport.remove(folder) }
        let odd: [UInt8] = [0x66, 0xFF, 0x0A]
        try MediaTestSupport.makeFile(Array((folder + "/").utf8) + odd)
        try MediaTestSupport.makeDirectory(folder + "/sub")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "sub")

        let directory = try FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY)
        let stream = try DirectoryStream(taking: directory)
        defer { stream.close() }
        var entries: [DirectoryEntry] = []
        while let entry = try stream.next() { entries.append(entry) }
        #expect(Set(entries.map { $0.name }) == [odd, Array("sub".utf8), Array("link".utf8)])
        for entry in entries {
            let status = try stream.descriptor.statusOfEntry(entry.name)
            #expect(entry.kind == .unknown || entry.kind == status.kind)
        }
        #expect(try stream.descriptor.statusOfEntry(Array("link".utf8)).kind == .symbolicLink)
        // Linux checks O_DIRECTORY before O_NOFOLLOW: a link is "not a directory".
        #expect(throws: Errno(ENOTDIR)) { try stream.descriptor.openSubdirectory(Array("link".utf8)) }
        #expect(throws: Errno(ENOTDIR)) { try stream.descriptor.openSubdirectory(odd) }
        let sub = try stream.descriptor.openSubdirectory(Array("sub".utf8))
        #expect(try sub.status().kind == .directory)
        sub.close()
    }

    @Test func makeRenameRemoveAndBoundedReads() throws {
        let folder = try MediaTestSupport.temporaryDirectory("at")
        defer { MediaTestSupport.remove(folder) }
        try FileDescriptor.makeDirectories(Array((folder + "/a/b/c").utf8))
        try FileDescriptor.makeDirectories(Array((folder + "/a/b/c/").utf8))  // again: fine
        let directory = try FileDescriptor.open(folder + "/a/b/c", O_RDONLY | O_DIRECTORY)
        defer { directory.close() }
        let file = try directory.openEntry(Array("x.tmp".utf8), O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        try file.writeAll(Array("0123456789".utf8))
        file.close()
        try directory.renameEntry(Array("x.tmp".utf8), to: Array("x".utf8))
        #expect(throws: Errno.noEntry) { try directory.statusOfEntry(Array("x.tmp".utf8)) }
        let status = try directory.statusOfEntry(Array("x".utf8))
        #expect(status.kind == .regular && status.size == 10)

        let reader = try directory.openEntry(Array("x".utf8), O_RDONLY)
        let (head, complete) = try reader.readAll(limit: 4)
        #expect(head == Array("0123".utf8) && !complete)
        reader.close()
        let whole = try directory.openEntry(Array("x".utf8), O_RDONLY)
        #expect(try whole.readAll(limit: 10) == (Array("0123456789".utf8), true))
        whole.close()

        try directory.removeEntry(Array("x".utf8))
        try FileDescriptor.currentDirectory.removeEntry(Array((folder + "/a/b/c").utf8), directory: true)
        #expect(!FileManager.default.fileExists(atPath: folder + "/a/b/c"))
        try MediaTestSupport.makeFile(folder + "/plain")
        #expect(throws: Errno(ENOTDIR)) { try FileDescriptor.makeDirectories(Array((folder + "/plain").utf8)) }
    }

    @Test(.enabled(if: MediaTestSupport.isRoot, "mounting needs root"))
    func mountAndLazyUnmount() throws {
        let folder = try MediaTestSupport.temporaryDirectory("mnt")
        defer { MediaTestSupport.remove(folder) }
        try Mounts.mount(source: Array("shfl-test".utf8), target: Array(folder.utf8), type: "tmpfs",
                         flags: [.readOnly, .noSetUserID, .noDevices, .noExecute], options: "size=64k")
        #expect(SystemMediaMounterTests.mountOptions(of: folder)?.contains("ro") == true)
        try Mounts.unmount(Array(folder.utf8), lazily: true)
        #expect(SystemMediaMounterTests.mountOptions(of: folder) == nil)
        #expect(throws: Errno(EINVAL)) { try Mounts.unmount(Array(folder.utf8), lazily: true) }
        #expect(throws: Errno(ENODEV)) {
            try Mounts.mount(source: Array("x".utf8), target: Array(folder.utf8), type: "no-such-fs", flags: [.readOnly], options: "")
        }
    }

    @Test func kernelFileSystemsAreRead() {
        let names = MediaRules.kernelFilesystems()
        #expect(names.contains("ext4") && names.contains("proc"))
        #expect(MediaRules.forThisKernel().filesystems.prefix(3) == ["vfat", "exfat", "ext4"])
    }
}
