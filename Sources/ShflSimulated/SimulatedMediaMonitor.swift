import ShflCore

/// The `MediaMonitor` port for tests and the demo: sticks are inserted and removed by calls.
/// `pollDescriptor` is -1 (nothing to poll); a later fd-backed version serves the event loop.
public final class SimulatedMediaMonitor: MediaMonitor {
    public private(set) var sticks: [StickInfo] = []
    private var pending: [MediaEvent] = []

    public init(present: [StickInfo] = []) {
        self.sticks = present
    }

    public var pollDescriptor: Int32 { -1 }

    public func insert(_ stick: StickInfo) {
        sticks.append(stick)
        pending.append(.arrived(stick))
    }

    public func remove(source: String) {
        sticks.removeAll { $0.source == source }
        pending.append(.left(source: source))
    }

    public func present() throws(DeviceError) -> [StickInfo] {
        sticks
    }

    public func readEvents(into events: inout [MediaEvent]) throws(DeviceError) {
        events.append(contentsOf: pending)
        pending.removeAll()
    }
}
