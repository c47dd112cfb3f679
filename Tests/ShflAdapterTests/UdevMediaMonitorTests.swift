import Foundation
import ShflCore
import ShflMedia
import ShflSystem
import ShflTestKit
import Testing

/// Waits up to `seconds` for events of the device `node` until `done` says enough; other
/// devices' events (another test's loop devices) are dropped.
func waitForEvents(
    _ monitor: UdevMediaMonitor, of node: String, seconds: Double = 5, until done: ([MediaEvent]) -> Bool
) throws -> [MediaEvent] {
    var poller = Poller()
    poller.watch(FileDescriptor(rawValue: monitor.pollDescriptor))
    var events: [MediaEvent] = []
    let deadline = Date().addingTimeInterval(seconds)
    while !done(events) && Date() < deadline {
        _ = try poller.wait(timeoutMilliseconds: 50)
        var all: [MediaEvent] = []
        try monitor.readEvents(into: &all)
        events += all.filter { event in
            switch event {
            case .arrived(let stick): stick.source == node
            case .left(let source): source == node
            }
        }
    }
    return events
}

/// The udev adapter against real libudev, with loop devices standing in for sticks (they
/// have no bus, so these monitors accept any bus). Serialized: one udevd at a time.
@Suite(.serialized) struct UdevMediaMonitorTests {
    static let anyBus = MediaRules(filesystems: ["vfat", "ext4"], buses: [])
    static let standard = MediaRules.standard(kernelFilesystems: [])
    static func fatStick(_ node: String) -> StickInfo {
        StickInfo(source: node, filesystem: "vfat", id: StickID(uuid: "1A2B-3C4D"), label: "SHFLTEST")
    }

    @Test func idleMonitorsKeepTheContract() throws {
        try checkMediaMonitorIdleContract(UdevMediaMonitor(rules: Self.standard, source: .kernel))
        try checkMediaMonitorIdleContract(UdevMediaMonitor(rules: Self.standard, source: .udev))
    }

    @Test func rulesSayWhyADeviceDoesNotCount() {
        #expect(Self.standard.rejection(filesystem: "vfat", bus: "usb") == nil)
        #expect(Self.standard.rejection(filesystem: "vfat", bus: "ata") == "bus ata is not one of usb")
        #expect(Self.standard.rejection(filesystem: "ntfs", bus: "usb") == "file system ntfs is not one of vfat, exfat, ext4")
        #expect(MediaRules.standard(kernelFilesystems: ["ext4", "ntfs3"]).rejection(filesystem: "ntfs", bus: "usb") == nil)
        #expect(Self.standard.rejection(filesystem: "", bus: "usb") == "no file system")
        #expect(Self.anyBus.rejection(filesystem: "ext4", bus: "") == nil)
    }

    /// The fallback without udevd: the kernel's uevents, the file system read from the device.
    @Test(.enabled(if: MediaTestSupport.isRoot, "attaching loop devices and writing uevent files needs root"))
    func kernelMonitorHearsAnInjectedUeventAndProbesTheStick() throws {
        let folder = try MediaTestSupport.temporaryDirectory("kernel")
        defer { MediaTestSupport.remove(folder) }
        try StickImages.fat(folder + "/fat.img")
        let loop = try LoopDevice(image: folder + "/fat.img")
        defer { loop.detach() }

        let monitor = try UdevMediaMonitor(rules: Self.anyBus, source: .kernel)
        let usbOnly = try UdevMediaMonitor(rules: Self.standard, source: .kernel)
        #expect(try monitor.present().contains(Self.fatStick(loop.node)), "the start-up enumeration finds it")
        #expect(try !usbOnly.present().contains { $0.source == loop.node }, "a loop device is on no USB bus")

        let fresh = try UdevMediaMonitor(rules: Self.anyBus, source: .kernel)
        try "add".write(toFile: "/sys/devices/virtual/block/" + loop.name + "/uevent", atomically: false, encoding: .utf8)
        let injected = try waitForEvents(fresh, of: loop.node) { !$0.isEmpty }
        #expect(injected == [.arrived(Self.fatStick(loop.node))])
        // The same identity again is no news for a monitor that knows the stick.
        try "change".write(toFile: "/sys/devices/virtual/block/" + loop.name + "/uevent", atomically: false, encoding: .utf8)
        #expect(try waitForEvents(monitor, of: loop.node, seconds: 0.5) { _ in false }.isEmpty)

        loop.detach()
        #expect(try waitForEvents(monitor, of: loop.node) { !$0.isEmpty } == [.left(source: loop.node)])
        #expect(try waitForEvents(fresh, of: loop.node) { !$0.isEmpty } == [.left(source: loop.node)])
        var none: [MediaEvent] = []
        try usbOnly.readEvents(into: &none)
        #expect(!none.contains { $0 == .arrived(Self.fatStick(loop.node)) })
    }

    /// The normal case: systemd-udevd's events, with ID_FS_TYPE, ID_FS_UUID and the label.
    @Test(.enabled(if: UdevDaemon.unavailableReason == nil, "\(UdevDaemon.unavailableReason ?? "")"))
    func udevMonitorSeesALoopDeviceHoldingAFATImage() throws {
        let daemon = try UdevDaemon()
        defer { daemon.stop() }
        #expect(UdevEventSource.automatic() == .udev)
        let folder = try MediaTestSupport.temporaryDirectory("udev")
        defer { MediaTestSupport.remove(folder) }
        try StickImages.fat(folder + "/fat.img")
        let monitor = try UdevMediaMonitor(rules: Self.anyBus, source: .udev)
        var poller = Poller()
        poller.watch(FileDescriptor(rawValue: monitor.pollDescriptor))
        var loop: LoopDevice?
        defer { loop?.detach() }
        try checkMediaMonitorHotPlugContract(monitor, driver: MediaMonitorStickDriver(
            arrive: {
                let attached = try LoopDevice(image: folder + "/fat.img")
                loop = attached
                return Self.fatStick(attached.node)
            },
            leave: { loop?.detach() },
            waitUntilReadable: { seconds in try poller.wait(timeoutMilliseconds: Int32(seconds * 1_000)) > 0 },
            whilePresent: { stick in
                // Enumerated from udev's database by a monitor started later.
                let later = try UdevMediaMonitor(rules: Self.anyBus, source: .udev)
                #expect(try later.present().contains(stick))
            }))
    }

    /// Everything real: a stick (an ext4 image on a loop device) arrives through libudev (from
    /// udevd when it can run here, else the kernel), is mounted with mount(2), scanned and
    /// played; it is pulled (detached) mid-track and plugged back, and resumes where it was.
    @Test(.enabled(if: MediaTestSupport.isRoot, "loop devices and mounting need root"), arguments: [UdevEventSource.udev, .kernel])
    func aRealStickArrivesIsPulledAndResumes(source: UdevEventSource) throws {
        if source == .udev, let reason = UdevDaemon.unavailableReason {
            print("skipped the udev source of the end-to-end hot-plug test: " + reason)
            return
        }
        let daemon: UdevDaemon? = source == .udev ? try UdevDaemon() : nil
        defer { daemon?.stop() }
        let folder = try MediaTestSupport.temporaryDirectory("e2e")
        defer { MediaTestSupport.remove(folder) }
        for index in 0..<6 {
            try MediaTestSupport.makeDirectory(folder + "/tree/Artist \(index % 2)")
            try MediaTestSupport.makeFile(folder + "/tree/Artist \(index % 2)/Song \(index).mp3", "mp3")
        }
        let uuid = "5e1fc4ec-0000-4000-8000-00000000abcd"
        try StickImages.ext4(folder + "/stick.img", contents: folder + "/tree", uuid: uuid, label: "E2E")

        let monitor = try UdevMediaMonitor(rules: MediaRules(filesystems: ["ext4"], buses: []), source: source)
        let rig = try StickRig(stateDirectory: folder + "/state", mounter: SystemMediaMounter(runtimeDirectory: folder + "/media"))
        func plugIn() throws -> LoopDevice {
            let loop = try LoopDevice(image: folder + "/stick.img")
            let events = try waitForEvents(monitor, of: loop.node) { $0.contains { if case .arrived = $0 { true } else { false } } }
            guard let arrival = events.first(where: { if case .arrived = $0 { true } else { false } }) else {
                loop.detach()
                throw MediaTestSupport.CommandFailed(description: "no arrival for \(loop.node): \(events)")
            }
            #expect(arrival == .arrived(StickInfo(source: loop.node, filesystem: "ext4", id: StickID(uuid: uuid), label: "E2E")))
            rig.send(arrival)
            return loop
        }
        func pull(_ loop: LoopDevice) throws {
            // A loop device stays attached while mounted (a real stick just vanishes): let go
            // of it first, as the kernel would; the loader's own unmount then finds nothing.
            if let mounted = rig.loader.current { try? SystemMediaMounter(runtimeDirectory: folder + "/media").unmount(mounted) }
            loop.detach()
            let events = try waitForEvents(monitor, of: loop.node) { $0.contains(.left(source: loop.node)) }
            #expect(events.contains(.left(source: loop.node)))
            rig.send(.left(source: loop.node))
        }

        let first = try plugIn()
        defer { first.detach() }
        #expect(rig.failures.isEmpty, "\(rig.failures)")
        #expect(rig.player.tracks.count == 6)
        let mountPoint = folder + "/media/" + uuid
        #expect(SystemMediaMounterTests.mountOptions(of: mountPoint)?.contains("ro") == true)
        rig.listen(seconds: 2)
        rig.finishTrack()
        rig.listen(seconds: 14)
        let track = rig.player.currentTrack
        let order = rig.player.shuffle.order
        try pull(first)
        #expect(rig.player.state == .empty)
        #expect(SystemMediaMounterTests.mountOptions(of: mountPoint) == nil)

        let second = try plugIn()
        defer { second.detach() }
        #expect(rig.player.currentTrack == track && rig.player.shuffle.order == order)
        #expect(rig.player.position == .seconds(14))
        try pull(second)
        #expect(!FileManager.default.fileExists(atPath: mountPoint))
    }
}
