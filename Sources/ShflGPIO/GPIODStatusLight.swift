import CGPIOD
import ShflCore
import ShflSystem

/// The `StatusLight` port on a real GPIO output line through libgpiod 1.6.
///
/// The LED's line is requested as an output, dark (`gpiod_line_request_output_flags`), and
/// `setLit(_:)` drives it (`gpiod_line_set_value`, one ioctl: it never blocks). The board's
/// `ledPolarity` says which level lights it. The event loop calls `setLit(_:)` at the instants
/// its `LightSchedule` names, woken by its timer, never from the audio thread.
///
/// `close()` (or the object's end) darkens the LED and releases the line, so a clean exit never
/// leaves it lit. (After a crash the kernel releases the line and it keeps its last level.)
public final class GPIODStatusLight: StatusLight {
    public let polarity: LinePolarity
    private let chip: GPIODChip
    private let line: GPIODLine
    private var isClosed = false

    /// Requests the LED line of `pinMap` on `chip` (the chip `pinMap` names), dark.
    public init(chip: GPIODChip, pinMap: BoardPinMap, consumer: String = "shfl") throws(DeviceError) {
        self.chip = chip
        self.polarity = pinMap.ledPolarity
        line = try chip.line(pinMap.led.line, for: pinMap.placeDescription(of: .led))
        try line.requestOutput(consumer: consumer, value: polarity.lineValue(lit: false))
    }

    deinit {
        close()
    }

    public func setLit(_ lit: Bool) throws(DeviceError) {
        guard !isClosed else { throw DeviceError(line.context + ": the LED line is closed") }
        try line.setValue(polarity.lineValue(lit: lit))
    }

    /// Darkens the LED and releases its line (`gpiod_line_release`). Idempotent.
    public func close() {
        guard !isClosed else { return }
        try? line.setValue(polarity.lineValue(lit: false))
        isClosed = true
        line.release()
    }
}
