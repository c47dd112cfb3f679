import CGPIOD
import ShflCore
import ShflSystem

/// A GPIO chip opened through libgpiod 1.6 (Debian 12, Raspberry Pi OS bookworm), found by its
/// label because its number differs between models and kernels (SPEC §10): on a Pi 5 the
/// header's chip is gpiochip4 on early bookworm kernels and gpiochip0 on later ones.
///
/// The chip owns its lines (libgpiod frees them with it): `GPIODButtonLines` and
/// `GPIODStatusLight` keep a reference to it, and it is closed when the last one lets go, or
/// by `close()`. Every error names the board, the chip and, for a line, the part and its line.
public final class GPIODChip {
    /// A chip as `gpiodetect` shows it: "gpiochip0 [pinctrl-bcm2711] (58 lines)".
    public struct Info: Hashable, Sendable, CustomStringConvertible {
        /// The device's name under /dev ("gpiochip0").
        public var name: String
        public var label: String
        public var lineCount: Int

        public init(name: String, label: String, lineCount: Int) {
            self.name = name
            self.label = label
            self.lineCount = lineCount
        }

        public var description: String {
            name + " [" + label + "] (" + String(lineCount) + " lines)"
        }

        /// "gpiochip0 [pinctrl-bcm2711]".
        public var shortDescription: String {
            name + " [" + label + "]"
        }
    }

    public let info: Info
    /// Who uses the chip, for error messages: "board pi-4".
    public let owner: String
    private var handle: OpaquePointer?

    private init(handle: OpaquePointer, info: Info, owner: String) {
        self.handle = handle
        self.info = info
        self.owner = owner
    }

    deinit {
        close()
    }

    /// The GPIO chips present, in /dev order: `gpiod_chip_iter_new`, then for each chip
    /// `gpiod_chip_name`, `gpiod_chip_label` and `gpiod_chip_num_lines`, then
    /// `gpiod_chip_iter_free`. No chip at all is an empty list, not an error.
    ///
    /// libgpiod 1.6 opens every /dev/gpiochip* to list them and fails as a whole if one cannot
    /// be opened (for example EACCES on a chip the user may not read): that is reported.
    public static func available() throws(DeviceError) -> [Info] {
        guard let iterator = gpiod_chip_iter_new() else {
            throw Errno.current.deviceError("cannot list the GPIO chips in /dev (gpiod_chip_iter_new)")
        }
        var chips: [Info] = []
        // Iterate to the end: `gpiod_chip_iter_next` closes the chip it returned before, and
        // `gpiod_chip_iter_free` would leak the last one if the loop stopped on it.
        while let chip = gpiod_chip_iter_next(iterator) {
            chips.append(Info(
                name: String(cString: gpiod_chip_name(chip)), label: String(cString: gpiod_chip_label(chip)),
                lineCount: Int(gpiod_chip_num_lines(chip))))
        }
        gpiod_chip_iter_free(iterator)
        return chips
    }

    /// Opens the chip whose label is exactly `label` (the first one in /dev order):
    /// `available()`, then `gpiod_chip_open_by_name`. `owner` names the user in errors.
    ///
    /// Without one: "board pi-4: no GPIO chip with label 'pinctrl-bcm2711' (available: none)",
    /// or the chips there are, so a wrong board file shows at once.
    public static func open(label: String, owner: String) throws(DeviceError) -> GPIODChip {
        let chips: [Info]
        do {
            chips = try available()
        } catch {
            throw DeviceError(owner + ": " + error.message, code: error.code)
        }
        guard let info = chips.first(where: { $0.label == label }) else {
            throw DeviceError(owner + ": " + noChipMessage(labels: [label], available: chips))
        }
        guard let handle = gpiod_chip_open_by_name(info.name) else {
            throw Errno.current.deviceError(owner + ": cannot open " + info.shortDescription + " (gpiod_chip_open_by_name)")
        }
        return GPIODChip(handle: handle, info: info, owner: owner)
    }

    /// "no GPIO chip with label 'a' (available: none)", or with several labels
    /// "no GPIO chip with label 'a', 'b' or 'c' (available: gpiochip0 [x], gpiochip1 [y])".
    public static func noChipMessage(labels: [String], available chips: [Info]) -> String {
        var text = "no GPIO chip with label "
        for (index, label) in labels.enumerated() {
            if index > 0 { text += index == labels.count - 1 ? " or " : ", " }
            text += "'" + label + "'"
        }
        text += " (available: "
        if chips.isEmpty { text += "none" }
        for (index, chip) in chips.enumerated() {
            text += (index == 0 ? "" : ", ") + chip.shortDescription
        }
        return text + ")"
    }

    /// Line `offset` of the chip, for `part` ("PLAY on GPIO17 (pin 11)"): `gpiod_chip_get_line`,
    /// after checking the offset against the chip's line count.
    func line(_ offset: Int, for part: String) throws(DeviceError) -> GPIODLine {
        let context = owner + ": " + part + " = line " + String(offset) + " of " + info.shortDescription
        guard let handle else { throw DeviceError(context + ": the chip is closed") }
        guard offset >= 0, offset < info.lineCount else {
            throw DeviceError(context + ": out of range, the chip has lines 0 to " + String(info.lineCount - 1))
        }
        guard let line = gpiod_chip_get_line(handle, UInt32(offset)) else {
            throw Errno.current.deviceError(context + ": gpiod_chip_get_line")
        }
        return GPIODLine(handle: line, context: context)
    }

    /// Closes the chip and with it every line still requested (`gpiod_chip_close`). Idempotent.
    public func close() {
        guard let handle else { return }
        self.handle = nil
        gpiod_chip_close(handle)
    }
}
