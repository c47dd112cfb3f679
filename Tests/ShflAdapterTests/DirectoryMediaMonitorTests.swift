import Foundation
import ShflCore
import ShflMedia
import ShflSystem
import ShflTestKit
import Testing

@Suite struct DirectoryMediaMonitorTests {
    @Test func subfoldersMovedInAndOutAreSticksArrivingAndLeaving() throws {
        let base = NSTemporaryDirectory() + "shfl-dirmon-\(getpid())"
        let sticks = base + "/sticks"
        try FileManager.default.createDirectory(atPath: sticks, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/.hidden-outside", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: sticks + "/AAAA-0001", withIntermediateDirectories: true)

        let monitor = try DirectoryMediaMonitor(folder: sticks)
        try checkMediaMonitorIdleContract(monitor)
        #expect(try monitor.present().map { $0.id.uuid } == ["AAAA-0001"])

        let prepared = base + "/BBBB-0002"
        try FileManager.default.createDirectory(atPath: prepared, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: prepared + "/a.mp3"))
        try FileManager.default.moveItem(atPath: prepared, toPath: sticks + "/BBBB-0002")
        try FileManager.default.createDirectory(atPath: sticks + "/.Trash", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: sticks + "/AAAA-0001")

        var poller = Poller()
        poller.watch(FileDescriptor(rawValue: monitor.pollDescriptor))
        #expect(try poller.wait(timeoutMilliseconds: 1_000) == 1)
        var events: [MediaEvent] = []
        try monitor.readEvents(into: &events)
        let arrived = StickInfo(source: sticks + "/BBBB-0002", filesystem: "directory", id: StickID(uuid: "BBBB-0002"), label: "BBBB-0002")
        #expect(events == [.arrived(arrived), .left(source: sticks + "/AAAA-0001")])
        #expect(try monitor.present() == [arrived])
    }

    @Test func meetsTheHotPlugContract() throws {
        let base = try MediaTestSupport.temporaryDirectory("dirmon-contract")
        defer { MediaTestSupport.remove(base) }
        try FileManager.default.createDirectory(atPath: base + "/sticks", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/CCCC-0003", withIntermediateDirectories: true)
        let monitor = try DirectoryMediaMonitor(folder: base + "/sticks")
        let inside = base + "/sticks/CCCC-0003"
        var poller = Poller()
        poller.watch(FileDescriptor(rawValue: monitor.pollDescriptor))
        try checkMediaMonitorHotPlugContract(monitor, driver: MediaMonitorStickDriver(
            arrive: {
                try FileManager.default.moveItem(atPath: base + "/CCCC-0003", toPath: inside)
                return StickInfo(source: inside, filesystem: "directory", id: StickID(uuid: "CCCC-0003"), label: "CCCC-0003")
            },
            leave: { try FileManager.default.moveItem(atPath: inside, toPath: base + "/CCCC-0003") },
            waitUntilReadable: { seconds in try poller.wait(timeoutMilliseconds: Int32(seconds * 1_000)) > 0 }))
    }

    @Test func aMissingFolderIsAClearError() {
        #expect(throws: DeviceError.self) { try DirectoryMediaMonitor(folder: "/nonexistent/shfl/sticks") }
    }
}
