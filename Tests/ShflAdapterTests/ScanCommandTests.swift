import Foundation
import Testing

/// `shfl scan PATH` as a user runs it: the chosen tracks, "N/120", the policy and every skip
/// reason.
@Suite struct ScanCommandTests {
    func scan(_ arguments: [String], asNobody: Bool = false) throws -> (status: Int32, output: String) {
        if asNobody {
            return try MediaTestSupport.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", MediaTestSupport.shflBinary, "scan"] + arguments, check: false)
        }
        return try MediaTestSupport.run(MediaTestSupport.shflBinary, ["scan"] + arguments, check: false)
    }

    @Test func printsTracksCountPolicyAndSkips() throws {
        let root = try MediaTestSupport.temporaryDirectory("cli")
        defer { MediaTestSupport.remove(root) }
        for index in 0..<130 { try MediaTestSupport.makeFile(root + "/Song \(String(format: "%03d", index)).mp3", "x") }
        try MediaTestSupport.makeFile(root + "/readme.txt", "x")
        try FileManager.default.createSymbolicLink(atPath: root + "/link.mp3", withDestinationPath: "/etc/passwd")
        #expect(mkfifo(root + "/pipe.mp3", 0o644) == 0)

        let (status, output) = try scan([root, "--policy", "random", "--seed", "7"])
        #expect(status == 0)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == root + ": " + lines.first!.dropFirst(root.count + 2))
        #expect(output.contains("skipped: 1 file not MP3, 1 symbolic link, 1 special file"))
        #expect(lines.contains("skipped \"link.mp3\": symbolic link, not followed"))
        #expect(lines.contains("skipped \"pipe.mp3\": FIFO, not a regular file; not opened"))
        #expect(lines.contains("130 MP3 files on the stick, 10 not loaded: at most 120 are loaded, chosen by policy random (list the tracks you want in shfl.m3u to choose yourself)"))
        #expect(lines.filter { $0.hasPrefix("  Song ") }.count == 120)
        #expect(lines.last == "120/120 tracks, chosen by policy random from 130 MP3 files")

        // The same seed chooses the same tracks (the first line has the time taken).
        let again = try scan([root, "--policy", "random", "--seed", "7"]).output
        #expect(Array(again.split(separator: "\n").map(String.init).dropFirst()) == Array(lines.dropFirst()))
    }

    @Test func usageErrorsAndAMissingPath() throws {
        #expect(try scan([]).status == 2)
        #expect(try scan(["/tmp", "--policy", "loudest"]).output.contains("--policy needs one of"))
        let missing = try scan(["/nonexistent/stick"])
        #expect(missing.status == 1)
        #expect(missing.output.contains("shfl scan: cannot scan /nonexistent/stick: ENOENT"))
    }

    /// Root reads any folder, so the scan runs as nobody (setpriv) to meet an unreadable one.
    @Test(.enabled(if: MediaTestSupport.isRoot && MediaTestSupport.which("setpriv") != nil, "needs root and setpriv to scan as another user"))
    func anUnreadableFolderIsSkippedWithItsReason() throws {
        let root = try MediaTestSupport.temporaryDirectory("locked")
        defer { MediaTestSupport.remove(root) }
        try MediaTestSupport.makeDirectory(root + "/Open")
        try MediaTestSupport.makeDirectory(root + "/Locked")
        try MediaTestSupport.makeFile(root + "/Open/a.mp3", "x")
        try MediaTestSupport.makeFile(root + "/Locked/b.mp3", "x")
        for path in [root + "/Open", root + "/Open/a.mp3", root + "/Locked/b.mp3"] { chmod(path, 0o755) }
        chmod(root + "/Locked", 0o000)

        let (status, output) = try scan([root], asNobody: true)
        #expect(status == 0, "\(output)")
        #expect(output.contains("skipped \"Locked\": cannot open the folder: EACCES (Permission denied)"))
        #expect(output.contains("\n  Open/a.mp3\n"))
        #expect(output.contains("1/120 tracks, chosen by policy alphabetical from 1 MP3 files"))
    }
}
