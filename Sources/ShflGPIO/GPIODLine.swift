import CGPIOD
import ShflCore
import ShflSystem

/// One line of a `GPIODChip`, with the libgpiod 1.6 calls the adapters make on it, each wrapped
/// once. Errors carry `context` ("board pi-4: PLAY on GPIO17 (pin 11) = line 17 of gpiochip0
/// [pinctrl-bcm2711]") and the errno. The chip owns the line's memory: a `GPIODLine` must not
/// be used after its chip is closed.
struct GPIODLine {
    let handle: OpaquePointer
    let context: String

    /// The kernel keeps at most this many events per line (the v1 uAPI's FIFO, which libgpiod
    /// 1.6 uses): a read that returns this many may have missed some.
    static let eventBatch = 16

    /// Requests the line as an input with both-edge events: 
    /// `gpiod_line_request_both_edges_events_flags`. A line another consumer holds fails with
    /// EBUSY and names that consumer.
    func requestBothEdgeEvents(consumer: String, flags: Int32) throws(DeviceError) {
        guard gpiod_line_request_both_edges_events_flags(handle, consumer, flags) == 0 else {
            throw requestError("request as an input with edge events")
        }
    }

    /// Requests the line as an output at `value` (0 or 1): `gpiod_line_request_output_flags`.
    func requestOutput(consumer: String, value: Int32) throws(DeviceError) {
        guard gpiod_line_request_output_flags(handle, consumer, 0, value) == 0 else {
            throw requestError("request as an output")
        }
    }

    /// The descriptor the kernel reports this line's events on: `gpiod_line_event_get_fd`.
    func eventDescriptor() throws(DeviceError) -> FileDescriptor {
        let raw = gpiod_line_event_get_fd(handle)
        guard raw >= 0 else { throw Errno.current.deviceError(context + ": gpiod_line_event_get_fd") }
        return FileDescriptor(rawValue: raw)
    }

    /// Reads up to `eventBatch` pending events from `descriptor` (non-blocking) into `events`:
    /// `gpiod_line_event_read_fd_multiple`. Returns how many, or nil when none is pending.
    func readEvents(from descriptor: FileDescriptor, into events: inout [gpiod_line_event]) throws(DeviceError) -> Int? {
        let capacity = min(events.count, GPIODLine.eventBatch)
        while true {
            let count = events.withUnsafeMutableBufferPointer { buffer in
                gpiod_line_event_read_fd_multiple(descriptor.rawValue, buffer.baseAddress, UInt32(capacity))
            }
            if count >= 0 { return Int(count) }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock { return nil }
            throw error.deviceError(context + ": reading edge events (gpiod_line_event_read_fd_multiple)")
        }
    }

    /// The line's physical value, 0 or 1: `gpiod_line_get_value`.
    func value() throws(DeviceError) -> Int32 {
        let value = gpiod_line_get_value(handle)
        guard value >= 0 else { throw Errno.current.deviceError(context + ": gpiod_line_get_value") }
        return value
    }

    /// Drives the (output) line to `value`: `gpiod_line_set_value`.
    func setValue(_ value: Int32) throws(DeviceError) {
        guard gpiod_line_set_value(handle, value) == 0 else {
            throw Errno.current.deviceError(context + ": gpiod_line_set_value")
        }
    }

    /// Gives the line back to the kernel (`gpiod_line_release`); its event descriptor closes.
    func release() {
        gpiod_line_release(handle)
    }

    /// Who holds the line now, if anyone: `gpiod_line_update`, then `gpiod_line_consumer`.
    func currentConsumer() -> String? {
        guard gpiod_line_update(handle) == 0, gpiod_line_is_used(handle) else { return nil }
        guard let consumer = gpiod_line_consumer(handle) else { return "the kernel" }
        return String(cString: consumer)
    }

    /// The error of a failed request, naming the line's holder when it is busy.
    private func requestError(_ what: String) -> DeviceError {
        let error = Errno.current
        var message = context + ": " + what
        if error == .busy, let holder = currentConsumer() {
            message += ": in use by '" + holder + "'"
        }
        return error.deviceError(message)
    }
}
