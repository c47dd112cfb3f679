import CGPIOD
import ShflCore
import ShflSystem

/// The `ButtonLines` port on real GPIO lines through libgpiod 1.6.
///
/// Each button's line is requested as an input with the internal pull-up and both-edge events
/// (`gpiod_line_request_both_edges_events_flags` with `GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP`):
/// a button pulls its line to ground, so low is pressed (falling edge: pressed, rising edge:
/// released). Debian's libgpiod and the v1 kernel interface it uses have no debounce: every
/// bounce edge arrives, with the kernel's timestamp, and the core's `Debouncer` settles them.
///
/// libgpiod 1.6 gives one event descriptor per line; they are gathered in an `EventPollSet`,
/// whose single descriptor is `pollDescriptor`. `readEdges(into:)` reads every line until it
/// has nothing more (the descriptors are non-blocking).
///
/// What the kernel gets wrong is mended here, and counted:
/// - The v1 interface keeps 16 events per line. When a read finds it full, edges may have
///   been dropped, the last one included; the line's level is then sampled
///   (`gpiod_line_get_value`) and, if it differs from the last edge read, an edge to it is
///   added at the current time (`possiblyDroppedCount`).
/// - Since Linux 5.7 event timestamps are `CLOCK_MONOTONIC`, the clock of the event loop;
///   before, they were wall-clock time. An edge stamped more than a minute before or a second
///   after `CLOCK_MONOTONIC`'s now is taken as happening now (`restampedCount`), so a kernel
///   with the other clock cannot push the gesture timing years away.
public final class GPIODButtonLines: ButtonLines {
    public let buttons: [Button]
    /// Reads that found a line's kernel queue full (edges may have been lost).
    public private(set) var possiblyDroppedCount = 0
    /// Edges whose timestamp was not on the monotonic clock and were stamped "now" instead.
    public private(set) var restampedCount = 0

    private let chip: GPIODChip
    private var lines: [RequestedLine]
    private let pollSet: EventPollSet
    private let clock = SystemMonotonicClock()
    private var events: [gpiod_line_event]
    private var isClosed = false

    private struct RequestedLine {
        var button: Button
        var line: GPIODLine
        var descriptor: FileDescriptor
    }

    /// Requests the lines of `buttons` (by default every button `pinMap` wires) on `chip`,
    /// which must be the chip `pinMap` names. Nothing stays requested if one line fails.
    public init(chip: GPIODChip, pinMap: BoardPinMap, buttons: [Button]? = nil, consumer: String = "shfl") throws(DeviceError) {
        var wanted: [Button] = []
        for button in buttons ?? pinMap.wiredButtons where !wanted.contains(button) { wanted.append(button) }
        self.chip = chip
        self.buttons = wanted
        self.events = [gpiod_line_event](repeating: gpiod_line_event(), count: GPIODLine.eventBatch)
        do {
            pollSet = try EventPollSet()
        } catch {
            throw error.deviceError(chip.owner + ": button lines: epoll_create1")
        }
        lines = []
        do throws(DeviceError) {
            for button in wanted {
                guard let pin = pinMap.buttons[button] else {
                    throw DeviceError(chip.owner + ": the pin map wires no " + button.description + " button")
                }
                let line = try chip.line(pin.line, for: pinMap.placeDescription(of: .button(button)))
                try line.requestBothEdgeEvents(
                    consumer: consumer, flags: Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP))
                let descriptor: FileDescriptor
                do {
                    descriptor = try line.eventDescriptor()
                } catch {
                    line.release()
                    throw error
                }
                // From here on `close()` releases the line if anything fails.
                lines.append(RequestedLine(button: button, line: line, descriptor: descriptor))
                do {
                    try descriptor.setNonBlocking(true)
                    try pollSet.add(descriptor)
                } catch {
                    throw error.deviceError(line.context + ": watching its events (fcntl, epoll_ctl)")
                }
            }
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    public var pollDescriptor: Int32 { pollSet.descriptor.rawValue }

    /// Low is pressed: `gpiod_line_get_value`.
    public func level(of button: Button) throws(DeviceError) -> ButtonLevel {
        guard !isClosed, let requested = lines.first(where: { $0.button == button }) else {
            throw DeviceError(chip.owner + ": " + button.description + " is not a requested button line")
        }
        return try requested.line.value() == 0 ? .pressed : .released
    }

    public func readEdges(into edges: inout [ButtonEdge]) throws(DeviceError) {
        guard !isClosed else { throw DeviceError(chip.owner + ": the button lines are closed") }
        for requested in lines {
            var lastLevel: ButtonLevel?
            var queueWasFull = false
            while let count = try requested.line.readEvents(from: requested.descriptor, into: &events) {
                for index in 0..<count {
                    let edge = ButtonEdge(
                        button: requested.button, level: GPIODButtonLines.level(of: events[index]),
                        time: timestamp(of: events[index]))
                    edges.append(edge)
                    lastLevel = edge.level
                }
                if count == GPIODLine.eventBatch { queueWasFull = true }
            }
            if queueWasFull {
                possiblyDroppedCount += 1
                let level: ButtonLevel = try requested.line.value() == 0 ? .pressed : .released
                if level != lastLevel {
                    edges.append(ButtonEdge(button: requested.button, level: level, time: clock.now))
                }
            }
        }
    }

    /// Releases the lines (`gpiod_line_release`) and closes the poll set. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        pollSet.close()
        for requested in lines { requested.line.release() }
        lines = []
    }

    /// The level an event leaves the line at: falling (to ground) is pressed.
    static func level(of event: gpiod_line_event) -> ButtonLevel {
        event.event_type == Int32(GPIOD_LINE_EVENT_FALLING_EDGE) ? .pressed : .released
    }

    /// The event's kernel timestamp, or now if it is not on the monotonic clock (see above).
    private func timestamp(of event: gpiod_line_event) -> Instant {
        let stamped = Instant(nanoseconds: Int64(event.ts.tv_sec) &* 1_000_000_000 &+ Int64(event.ts.tv_nsec))
        let now = clock.now
        if stamped > now + .seconds(1) || stamped < now - .seconds(60) {
            restampedCount += 1
            return now
        }
        return stamped
    }
}
