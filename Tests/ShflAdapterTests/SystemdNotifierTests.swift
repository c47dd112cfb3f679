import CSystem
import Foundation
import ShflCore
import ShflService
import ShflSystem
import Testing

/// sd_notify against a real datagram socket standing in for systemd's, at a path and in the
/// abstract namespace; `systemd-notify` (libsystemd) must reach the same socket, so both
/// read NOTIFY_SOCKET the same way.
@Suite struct SystemdNotifierTests {
    /// A datagram socket bound to `address`, as systemd's notify socket is.
    final class Receiver {
        let socket: FileDescriptor

        init(_ address: String) throws {
            socket = try FileDescriptor.socket(.datagram, nonBlocking: true)
            try socket.bind(to: UnixSocketAddress(address)!)
        }

        deinit {
            socket.close()
        }

        /// The datagrams waiting, each as text.
        func messages() throws -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                do {
                    let count = try buffer.withUnsafeMutableBytes { try socket.read(into: $0) }
                    messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
                } catch let error as Errno where error == .wouldBlock {
                    return messages
                }
            }
        }
    }

    static func abstractName() -> String {
        "@shfl-test-notify-" + String(getpid()) + "-" + String(UInt32.random(in: 0...UInt32.max))
    }

    @Test func messagesArriveAsSentAtAPath() throws {
        let folder = try MediaTestSupport.temporaryDirectory("notify")
        defer { MediaTestSupport.remove(folder) }
        let path = folder + "/notify"
        let receiver = try Receiver(path)
        let notifier = try SystemdNotifier(notifySocket: path, watchdogMicroseconds: "10000000", watchdogPID: nil, processID: getpid())
        #expect(notifier.isEnabled)
        #expect(notifier.address?.description == path)

        try notifier.ready()
        try notifier.status("Playing 12/120: Blue in Green \u{2014} Miles Davis")
        try notifier.watchdog()
        try notifier.reloading()
        try notifier.ready(status: "Paused 12/120: x")
        try notifier.stopping(status: "Stopping")
        #expect(try receiver.messages() == [
            "READY=1",
            "STATUS=Playing 12/120: Blue in Green \u{2014} Miles Davis",
            "WATCHDOG=1",
            "RELOADING=1",
            "READY=1\nSTATUS=Paused 12/120: x",
            "STOPPING=1\nSTATUS=Stopping",
        ])
    }

    @Test func messagesArriveAtAnAbstractAddress() throws {
        let name = SystemdNotifierTests.abstractName()
        let receiver = try Receiver(name)
        let notifier = try SystemdNotifier(notifySocket: name, watchdogMicroseconds: nil, watchdogPID: nil, processID: getpid())
        try notifier.ready(status: "No stick")
        try notifier.watchdog()
        #expect(try receiver.messages() == ["READY=1\nSTATUS=No stick", "WATCHDOG=1"])
    }

    @Test(.enabled(if: MediaTestSupport.which("systemd-notify") != nil, "needs systemd-notify"))
    func systemdNotifyReachesTheSameAbstractSocket() throws {
        let name = SystemdNotifierTests.abstractName()
        let receiver = try Receiver(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MediaTestSupport.which("systemd-notify")!)
        // --no-block: without it, systemd-notify also waits on a BARRIER=1 that only PID 1 answers.
        process.arguments = ["--no-block", "--ready", "--status=Playing 1/2: x"]
        process.environment = ["NOTIFY_SOCKET": name]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let notifier = try SystemdNotifier(notifySocket: name, watchdogMicroseconds: nil, watchdogPID: nil, processID: getpid())
        try notifier.ready(status: "Playing 1/2: x")
        let messages = try receiver.messages()
        #expect(messages.count == 2)
        // libsystemd's message carries the same assignments (it may add MAINPID= and order them its way).
        let theirs = Set(messages[0].split(separator: "\n").map(String.init))
        #expect(theirs.isSuperset(of: ["READY=1", "STATUS=Playing 1/2: x"]))
        #expect(messages[1] == "READY=1\nSTATUS=Playing 1/2: x")
    }

    @Test func aNewlineInAStatusCannotForgeAnotherAssignment() throws {
        let name = SystemdNotifierTests.abstractName()
        let receiver = try Receiver(name)
        let notifier = try SystemdNotifier(notifySocket: name, watchdogMicroseconds: nil, watchdogPID: nil, processID: getpid())
        try notifier.status("Title\nREADY=1\u{7F}")
        #expect(try receiver.messages() == ["STATUS=Title READY=1 "])
    }

    @Test func withoutNotifySocketEverythingIsANoOp() throws {
        for notifier in [SystemdNotifier(), try SystemdNotifier(notifySocket: nil, watchdogMicroseconds: "5000000", watchdogPID: nil, processID: 1),
                         try SystemdNotifier(notifySocket: "", watchdogMicroseconds: nil, watchdogPID: nil, processID: 1)] {
            #expect(!notifier.isEnabled)
            #expect(notifier.watchdogInterval == nil)
            try notifier.ready()
            try notifier.status("x")
            try notifier.watchdog()
            try notifier.stopping()
        }
    }

    @Test func anUnusableNotifySocketIsAnError() throws {
        #expect(throws: DeviceError.self) {
            try SystemdNotifier(notifySocket: "relative/notify", watchdogMicroseconds: nil, watchdogPID: nil, processID: 1)
        }
        #expect(throws: DeviceError.self) {
            try SystemdNotifier(notifySocket: "/" + String(repeating: "x", count: 200), watchdogMicroseconds: nil, watchdogPID: nil, processID: 1)
        }
        #expect(throws: DeviceError.self) {
            try SystemdNotifier(notifySocket: "@", watchdogMicroseconds: nil, watchdogPID: nil, processID: 1)
        }
        // Nobody listening: the send fails (the loop logs it once and carries on).
        let notifier = try SystemdNotifier(notifySocket: "/nonexistent/notify", watchdogMicroseconds: nil, watchdogPID: nil, processID: 1)
        #expect(throws: Errno.noEntry) { try notifier.ready() }
    }

    @Test func theWatchdogIntervalComesFromWatchdogUsecForThisProcess() throws {
        func interval(_ usec: String?, _ pid: String?, processID: Int32 = 4242) throws -> (Duration?, Duration?) {
            let notifier = try SystemdNotifier(notifySocket: "/run/systemd/notify", watchdogMicroseconds: usec, watchdogPID: pid, processID: processID)
            return (notifier.watchdogInterval, notifier.watchdogPingInterval)
        }
        #expect(try interval("10000000", nil) == (.seconds(10), .seconds(5)))
        #expect(try interval("10000000", "4242") == (.seconds(10), .seconds(5)))
        #expect(try interval("3000", "4242") == (.milliseconds(3), .microseconds(1_500)))
        #expect(try interval("10000000", "4243") == (nil, nil), "another process's watchdog")
        #expect(try interval("10000000", "x") == (nil, nil))
        #expect(try interval("0", nil) == (nil, nil))
        #expect(try interval("-5", nil) == (nil, nil))
        #expect(try interval("10s", nil) == (nil, nil))
        #expect(try interval(nil, "4242") == (nil, nil))
    }
}
