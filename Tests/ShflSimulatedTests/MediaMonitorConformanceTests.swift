import ShflCore
import ShflSimulated
import ShflTestKit
import Testing

@Suite struct SimulatedMediaMonitorTests {
    let stick = StickInfo(source: "/dev/sda1", filesystem: "vfat", id: StickID(uuid: "1A2B-3C4D"), label: "MUSIC")

    @Test func meetsTheIdleContract() throws {
        try checkMediaMonitorIdleContract(SimulatedMediaMonitor())
    }

    @Test func meetsTheHotPlugContract() throws {
        let monitor = SimulatedMediaMonitor()
        try checkMediaMonitorHotPlugContract(monitor, driver: MediaMonitorStickDriver(
            arrive: { monitor.insert(stick); return stick }, leave: { monitor.remove(source: stick.source) },
            waitUntilReadable: { _ in true }))
    }

    @Test func reportsInsertAndRemovalInOrderOnce() throws {
        let monitor = SimulatedMediaMonitor()
        monitor.insert(stick)
        #expect(try monitor.present() == [stick])
        monitor.remove(source: "/dev/sda1")
        var events: [MediaEvent] = []
        try monitor.readEvents(into: &events)
        #expect(events == [.arrived(stick), .left(source: "/dev/sda1")])
        events.removeAll()
        try monitor.readEvents(into: &events)
        #expect(events.isEmpty)
        #expect(try monitor.present().isEmpty)
    }

    @Test func aStickPresentAtStartIsEnumerated() throws {
        #expect(try SimulatedMediaMonitor(present: [stick]).present() == [stick])
        #expect(stick.description == "MUSIC (1A2B-3C4D) on /dev/sda1 [vfat]")
    }
}
