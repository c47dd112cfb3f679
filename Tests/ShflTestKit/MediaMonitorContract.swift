import Foundation
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

/// How a contract check makes one stick come and go for an adapter under test.
public struct MediaMonitorStickDriver {
    /// Makes the stick appear (attach a loop device, move a folder in, call `insert`) and
    /// returns what the monitor must report for it.
    public var arrive: () throws -> StickInfo
    /// Makes it go.
    public var leave: () throws -> Void
    /// Runs between the arrival and the departure: the adapter's own extra checks.
    public var whilePresent: (StickInfo) throws -> Void
    /// Waits up to the given seconds for the monitor's `pollDescriptor` to be readable and
    /// says whether it became so. An adapter without a descriptor answers `true`.
    public var waitUntilReadable: (Double) throws -> Bool

    public init(arrive: @escaping () throws -> StickInfo, leave: @escaping () throws -> Void,
                waitUntilReadable: @escaping (Double) throws -> Bool,
                whilePresent: @escaping (StickInfo) throws -> Void = { _ in }) {
        self.whilePresent = whilePresent
        self.arrive = arrive
        self.leave = leave
        self.waitUntilReadable = waitUntilReadable
    }
}

/// The `MediaMonitor` contract for a stick that comes and goes: the descriptor wakes the loop,
/// the arrival is reported once with the stick's identity, `present()` lists the stick exactly
/// while it is there, nothing is reported twice, and the departure names the same source.
/// Events of other devices (another test's loop devices) are ignored. `seconds` bounds every
/// wait: it guards against a hang and is never the thing measured.
public func checkMediaMonitorHotPlugContract(_ monitor: some MediaMonitor, driver: MediaMonitorStickDriver,
                                             seconds: Double = 10) throws {
    let before = try monitor.present()
    let stick = try driver.arrive()
    let source = stick.source
    #expect(!before.contains { $0.source == source }, "the stick was not listed before it arrived")
    let arrived = try eventsOf(source, from: monitor, driver: driver, seconds: seconds) { !$0.isEmpty }
    #expect(arrived == [.arrived(stick)], "one arrival, with the stick's identity")
    #expect(try monitor.present().filter { $0.source == source } == [stick], "present() lists the stick once it arrived")
    var again: [MediaEvent] = []
    try monitor.readEvents(into: &again)
    #expect(!again.contains { $0 == .arrived(stick) }, "the arrival is not reported twice")
    try driver.whilePresent(stick)

    try driver.leave()
    let left = try eventsOf(source, from: monitor, driver: driver, seconds: seconds) { !$0.isEmpty }
    #expect(left == [.left(source: source)], "one departure, naming the same source")
    #expect(try !monitor.present().contains { $0.source == source }, "present() no longer lists the stick")
}

/// Thrown when an expected event does not come before the hang guard's deadline.
public struct MediaMonitorTimeout: Error, CustomStringConvertible {
    public var description: String
}

/// Waits (until `done` or the deadline, which throws) for the events about `source`.
private func eventsOf(_ source: String, from monitor: some MediaMonitor, driver: MediaMonitorStickDriver,
                      seconds: Double, until done: ([MediaEvent]) -> Bool) throws -> [MediaEvent] {
    let deadline = Date().addingTimeInterval(seconds)
    var events: [MediaEvent] = []
    var woke = false
    while !done(events) {
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else {
            throw MediaMonitorTimeout(description: "no event about " + source + " within " + String(seconds) + " s"
                                      + (woke ? " (the descriptor woke)" : " (the descriptor never woke)"))
        }
        woke = try driver.waitUntilReadable(min(left, 0.5)) || woke
        var all: [MediaEvent] = []
        try monitor.readEvents(into: &all)
        events += all.filter { event in
            switch event {
            case .arrived(let stick): stick.source == source
            case .left(let gone): gone == source
            }
        }
    }
    #expect(woke, "the poll descriptor became readable before the events about \(source) were read")
    return events
}
