import ShflCore
import ShflSimulated
import Testing

/// The `MediaMonitor` contract, for any adapter: reading events never blocks, and with nothing
/// happening it reports nothing; `present()` answers without error.
public func checkMediaMonitorIdleContract(_ monitor: some MediaMonitor) throws {
    _ = try monitor.present()
    var events: [MediaEvent] = []
    try monitor.readEvents(into: &events)
    try monitor.readEvents(into: &events)
    #expect(events.isEmpty)
}
