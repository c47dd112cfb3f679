import CGPIOD
import CSystem
import Foundation
import ShflCore
@testable import ShflGPIO
import ShflSystem
import ShflTestKit
import Testing

/// The libgpiod adapters against the real libgpiod 1.6. Without a GPIO chip (this CI machine)
/// only the "no chip" path runs; with the gpio-sim kernel module and configfs (root), the port
/// contracts run against a simulated chip (`GPIOSimChip`).
@Suite struct GPIODTests {
    static let pi4 = BoardPinMap(
        name: "pi-4", title: "Raspberry Pi 4", chipLabel: "pinctrl-bcm2711", header: .raspberryPi40,
        buttons: [.play: BoardPin(line: 17, headerPin: 11), .skip: BoardPin(line: 27, headerPin: 13)],
        led: BoardPin(line: 24, headerPin: 18))

    @Test func listingTheChipsWorksWithOrWithoutChips() throws {
        let chips = try GPIODChip.available()
        let inDev = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix("gpiochip") }
        #expect(chips.map(\.name).sorted() == inDev.sorted())
    }

    /// The issue's acceptance test: on a machine with no chip of the label, opening it reports
    /// "no GPIO chip with label … (available: …)" and nothing crashes.
    @Test func aMissingChipIsAClearErrorNamingTheBoardAndTheChipsThere() throws {
        let chips = try GPIODChip.available()
        let available = chips.isEmpty ? "none" : chips.map(\.shortDescription).joined(separator: ", ")
        #expect(throws: DeviceError("board pi-4: no GPIO chip with label 'no-such-chip' (available: " + available + ")")) {
            try GPIODChip.open(label: "no-such-chip", owner: "board pi-4")
        }
        if chips.isEmpty {
            #expect(throws: DeviceError("board pi-4: no GPIO chip with label 'pinctrl-bcm2711' (available: none)")) {
                try GPIODChip.open(label: Self.pi4.chipLabel, owner: "board pi-4")
            }
        }
    }

    @Test func noChipMessageListsLabelsAndChips() {
        let chips = [
            GPIODChip.Info(name: "gpiochip0", label: "pinctrl-rp1", lineCount: 54),
            GPIODChip.Info(name: "gpiochip10", label: "gpio-brcmstb@107d508500", lineCount: 32),
        ]
        #expect(GPIODChip.noChipMessage(labels: ["a", "b", "c"], available: chips)
            == "no GPIO chip with label 'a', 'b' or 'c' (available: gpiochip0 [pinctrl-rp1], gpiochip10 [gpio-brcmstb@107d508500])")
        #expect(chips[0].description == "gpiochip0 [pinctrl-rp1] (54 lines)")
    }

    /// Buttons pull their line to ground: a falling edge is a press.
    @Test func edgeDirectionsBecomeLevels() {
        var event = gpiod_line_event()
        event.event_type = Int32(GPIOD_LINE_EVENT_FALLING_EDGE)
        #expect(GPIODButtonLines.level(of: event) == .pressed)
        event.event_type = Int32(GPIOD_LINE_EVENT_RISING_EDGE)
        #expect(GPIODButtonLines.level(of: event) == .released)
    }

    // MARK: On a simulated chip (gpio-sim), where the kernel allows

    @Test(.enabled(if: GPIOSimChip.isAvailable, "needs the gpio-sim module, configfs and root"))
    func buttonLinesMeetTheContractOnGpioSim() throws {
        let sim = try GPIOSimChip(label: "shfl-test-buttons", lines: 8)
        defer { sim.remove() }
        let map = sim.pinMap
        let chip = try GPIODChip.open(label: map.chipLabel, owner: "board " + map.name)
        let lines = try GPIODButtonLines(chip: chip, pinMap: map)
        defer { lines.close() }
        try checkButtonLinesContract(lines) { button, level in
            guard let pin = map.buttons[button] else { return }
            sim.pull(pin.line, up: level == .released)
            var poller = Poller()
            let index = poller.watch(FileDescriptor(rawValue: lines.pollDescriptor))
            _ = try? poller.wait(timeoutMilliseconds: 1_000)
            #expect(poller.isReady(index))
        }
    }

    @Test(.enabled(if: GPIOSimChip.isAvailable, "needs the gpio-sim module, configfs and root"))
    func statusLightMeetsTheContractOnGpioSim() throws {
        let sim = try GPIOSimChip(label: "shfl-test-led", lines: 8)
        defer { sim.remove() }
        for polarity in [LinePolarity.activeHigh, .activeLow] {
            var map = sim.pinMap
            map.ledPolarity = polarity
            let chip = try GPIODChip.open(label: map.chipLabel, owner: "board " + map.name)
            let light = try GPIODStatusLight(chip: chip, pinMap: map)
            #expect(sim.value(map.led.line) == polarity.lineValue(lit: false))
            try checkStatusLightContract(light) { sim.value(map.led.line) == polarity.lineValue(lit: true) }
            try light.setLit(true)
            light.close()
            #expect(sim.value(map.led.line) == polarity.lineValue(lit: false), "close() leaves the LED dark")
        }
    }

    @Test(.enabled(if: GPIOSimChip.isAvailable, "needs the gpio-sim module, configfs and root"))
    func linesOutOfRangeOrHeldElsewhereAreClearErrors() throws {
        let sim = try GPIOSimChip(label: "shfl-test-errors", lines: 4)
        defer { sim.remove() }
        var map = sim.pinMap
        map.led = BoardPin(line: 6)
        let chip = try GPIODChip.open(label: map.chipLabel, owner: "board sim")
        #expect(throws: DeviceError.self) { try GPIODStatusLight(chip: chip, pinMap: map) }
        do {
            _ = try GPIODStatusLight(chip: chip, pinMap: map)
        } catch {
            #expect(error.message.hasPrefix("board sim: LED on line 6 = line 6 of "))
            #expect(error.message.hasSuffix("out of range, the chip has lines 0 to 3"))
        }
        let first = try GPIODButtonLines(chip: chip, pinMap: sim.pinMap, buttons: [.play])
        defer { first.close() }
        let other = try GPIODChip.open(label: map.chipLabel, owner: "board sim")
        do {
            _ = try GPIODButtonLines(chip: other, pinMap: sim.pinMap, buttons: [.skip, .play], consumer: "second")
            Issue.record("a held line was requested twice")
        } catch {
            #expect(error.message.contains("PLAY on line 0 = line 0 of "))
            #expect(error.message.contains("in use by 'shfl'"))
            #expect(error.code == 16)  // EBUSY
        }
        // Nothing stays requested after the failure: SKIP is free again.
        let skip = try GPIODButtonLines(chip: other, pinMap: sim.pinMap, buttons: [.skip])
        skip.close()
    }
}

/// A simulated GPIO chip made through the gpio-sim kernel module's configfs interface
/// (Linux 5.17+, Documentation/admin-guide/gpio/gpio-sim.rst): a bank of `lines` lines with a
/// label, whose inputs are driven by writing "pull-up"/"pull-down" to
/// /sys/devices/platform/<device>/<chip>/sim_gpioN/pull and whose outputs are read from
/// .../sim_gpioN/value. Host tests only (Foundation).
struct GPIOSimChip {
    static let configRoot = "/sys/kernel/config/gpio-sim"

    static var isAvailable: Bool {
        getuid() == 0 && FileManager.default.fileExists(atPath: configRoot)
    }

    let label: String
    let directory: String
    let lineDirectory: String

    init(label: String, lines: Int) throws {
        self.label = label
        directory = Self.configRoot + "/" + label
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/bank0", withIntermediateDirectories: true)
        try Self.write(String(lines), to: directory + "/bank0/num_lines")
        try Self.write(label, to: directory + "/bank0/label")
        try Self.write("1", to: directory + "/live")
        let device = try Self.read(directory + "/dev_name")
        let chip = try Self.read(directory + "/bank0/chip_name")
        lineDirectory = "/sys/devices/platform/" + device + "/" + chip
    }

    /// PLAY on line 0, SKIP on line 1, the LED on line 3.
    var pinMap: BoardPinMap {
        BoardPinMap(
            name: "sim", title: "gpio-sim", chipLabel: label, header: .none,
            buttons: [.play: BoardPin(line: 0), .skip: BoardPin(line: 1)], led: BoardPin(line: 3))
    }

    func pull(_ line: Int, up: Bool) {
        try? Self.write(up ? "pull-up" : "pull-down", to: lineDirectory + "/sim_gpio" + String(line) + "/pull")
    }

    func value(_ line: Int) -> Int32 {
        (try? Self.read(lineDirectory + "/sim_gpio" + String(line) + "/value")) == "1" ? 1 : 0
    }

    func remove() {
        try? Self.write("0", to: directory + "/live")
        // configfs directories go with rmdir(2) (their attribute files cannot be deleted).
        _ = rmdir(directory + "/bank0")
        _ = rmdir(directory)
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
