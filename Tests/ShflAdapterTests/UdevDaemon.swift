import Foundation

/// A systemd-udevd for a test: the one already running, or one started here (in the
/// foreground, as a child) and stopped again by `stop()`, which also removes what it created
/// (/run/udev, /dev/disk) when they were not there before.
final class UdevDaemon {
    private let process: Process?
    private let createdRunUdev: Bool
    private let createdDevDisk: Bool

    /// Why no udevd can run here, or nil.
    static var unavailableReason: String? {
        if isRunning { return nil }
        if !MediaTestSupport.isRoot { return "starting systemd-udevd needs root" }
        if executable == nil { return "systemd-udevd is not installed (scripts/install-deps.sh host installs udev)" }
        return nil
    }

    static var executable: String? {
        ["/lib/systemd/systemd-udevd", "/usr/lib/systemd/systemd-udevd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a systemd-udevd process exists (by /proc/*/comm).
    static var isRunning: Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            guard entry.allSatisfy(\.isNumber) else { return false }
            let name = (try? String(contentsOfFile: "/proc/" + entry + "/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix("systemd-udevd") || name.hasPrefix("udevd")
        }
    }

    init() throws {
        if UdevDaemon.isRunning {
            process = nil
            createdRunUdev = false
            createdDevDisk = false
            return
        }
        guard let executable = UdevDaemon.executable else {
            throw MediaTestSupport.CommandFailed(description: UdevDaemon.unavailableReason ?? "no udevd")
        }
        createdRunUdev = !FileManager.default.fileExists(atPath: "/run/udev")
        createdDevDisk = !FileManager.default.fileExists(atPath: "/dev/disk")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = []
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready once its control socket exists.
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/run/udev/control") && Date() < deadline && process.isRunning {
            usleep(10_000)
        }
        guard FileManager.default.fileExists(atPath: "/run/udev/control") else {
            stop()
            throw MediaTestSupport.CommandFailed(description: "systemd-udevd did not start")
        }
    }

    func stop() {
        guard let process else { return }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if createdRunUdev { try? FileManager.default.removeItem(atPath: "/run/udev") }
        if createdDevDisk { try? FileManager.default.removeItem(atPath: "/dev/disk") }
    }
}
