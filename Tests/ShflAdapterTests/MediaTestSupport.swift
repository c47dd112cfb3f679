import Foundation

/// Helpers of the media adapter tests: commands, temporary folders, loop devices, the `shfl`
/// binary. Everything a test creates is removed by the test (`defer`), also when it fails.
enum MediaTestSupport {
    static var isRoot: Bool { geteuid() == 0 }

    /// The `shfl` executable of this build, beside the test bundle.
    static var shflBinary: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("shfl").path
    }

    /// The full path of a program, looked up in PATH and the sbin folders.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin", "/lib/systemd", "/usr/lib/systemd"]
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct CommandFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a program to its end; returns its exit status and output (stdout then stderr).
    @discardableResult
    static func run(_ program: String, _ arguments: [String], check: Bool = true) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : (which(program) ?? program))
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: out, as: UTF8.self) + String(decoding: err, as: UTF8.self)
        if check && process.terminationStatus != 0 {
            throw CommandFailed(description: program + " " + arguments.joined(separator: " ") + " failed (" + String(process.terminationStatus) + "): " + text)
        }
        return (process.terminationStatus, text)
    }

    /// A new empty folder under /tmp, world-readable (a test may scan it as another user).
    static func temporaryDirectory(_ label: String) throws -> String {
        var template = Array("/tmp/shfl-\(label)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CommandFailed(description: "mkdtemp failed") }
        let path = String(cString: made)
        chmod(path, 0o755)
        return path
    }

    /// `rm -rf`, which also copes with trees too deep for one path.
    static func remove(_ path: String) {
        _ = try? run("rm", ["-rf", "--one-file-system", path], check: false)
    }

    /// Creates a file with `contents` at the raw path `bytes` (names need not be UTF-8).
    static func makeFile(_ bytes: [UInt8], contents: [UInt8] = []) throws {
        let cPath = bytes.map { CChar(bitPattern: $0) } + [0]
        let descriptor = open(cPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CommandFailed(description: "creating \(String(decoding: bytes, as: UTF8.self)): errno \(errno)") }
        defer { close(descriptor) }
        if !contents.isEmpty {
            _ = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    static func makeFile(_ path: String, _ contents: String = "") throws {
        try makeFile(Array(path.utf8), contents: Array(contents.utf8))
    }

    static func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
}

/// A loop device over an image file (`losetup`), detached by `detach()`.
final class LoopDevice {
    let node: String

    init(image: String) throws {
        node = try MediaTestSupport.run("losetup", ["--find", "--show", image]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The device's name in /sys/devices/virtual/block ("loop3").
    var name: String { URL(fileURLWithPath: node).lastPathComponent }

    func detach() {
        _ = try? MediaTestSupport.run("losetup", ["--detach", node], check: false)
    }
}

/// Images of the file systems a stick may hold, made with the standard tools.
enum StickImages {
    /// A FAT image of `megabytes` with volume id `1A2B-3C4D` and label `SHFLTEST`, empty.
    static func fat(_ path: String, megabytes: Int = 8) throws {
        try MediaTestSupport.run("truncate", ["-s", "\(megabytes)M", path])
        try MediaTestSupport.run("mkfs.vfat", ["-i", "1A2B3C4D", "-n", "SHFLTEST", path])
    }

    /// An ext4 image holding the tree under `contents`, with the given UUID and label.
    static func ext4(_ path: String, contents: String, uuid: String, label: String = "SHFLEXT", megabytes: Int = 16) throws {
        try MediaTestSupport.run("truncate", ["-s", "\(megabytes)M", path])
        try MediaTestSupport.run("mke2fs", ["-q", "-F", "-t", "ext4", "-U", uuid, "-L", label, "-d", contents, path])
    }
}
