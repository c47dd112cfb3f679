import CSystem
import ShflCore
import ShflGPIO
import ShflSystem

/// `shfl gpio-monitor`: like libgpiod's `gpiomon`, but through Shfl's own layer: prints every
/// debounced level change (with its bounce) and every gesture as the player would see it,
/// live, until Ctrl-C. `--raw` adds every kernel edge. Times count from the start.
enum GPIOMonitorCommand {
    static let usage = """
        usage: shfl gpio-monitor [--board NAME|FILE.ini] [--buttons play,skip,vol+,vol-] [--raw] [--simulated]
          --board      the pin map (board/NAME.ini); recognised from the device tree if not given
          --buttons    the buttons to watch (default: every button the pin map wires)
          --raw        also print every edge the kernel reports, before debouncing
          --simulated  no GPIO: buttons from a script on standard input ("press PLAY",
                       "wait 200", ...); stops at its end
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        let options: CommandOptions
        let buttons: [Button]?
        do throws(UsageError) {
            options = try CommandOptions.parse(arguments, valued: ["--board", "--buttons"], flags: ["--raw", "--simulated"])
            buttons = try options.buttons()
        } catch {
            StandardStreams.writeLine("shfl gpio-monitor: " + error.message, toError: true)
            StandardStreams.writeLine(usage, toError: true)
            return 2
        }
        guard let pinMap = BoardCheckCommand.loadPinMap(options.value("--board"), command: "gpio-monitor") else { return 1 }
        do throws(DeviceError) {
            let signals = try LoopDescriptors.blockSignals()  // before any thread exists
            defer { signals.close() }
            let raw = options.isSet("--raw")
            if options.isSet("--simulated") {
                let lines = try SocketPairButtonLines(buttons: buttons ?? pinMap.wiredButtons)
                StandardStreams.writeLine("watching " + watched(lines, pinMap) + " (simulated, from standard input)")
                do {
                    _ = try ButtonScriptFeeder.start(sending: lines.sender, stopAtEnd: true)
                } catch {
                    throw error.deviceError("simulated buttons: pthread_create")
                }
                return try monitor(lines, raw: raw, signals: signals)
            }
            let chip = try GPIODChip.open(label: pinMap.chipLabel, owner: "board " + pinMap.name)
            defer { chip.close() }
            let lines = try GPIODButtonLines(chip: chip, pinMap: pinMap, buttons: buttons, consumer: "shfl gpio-monitor")
            defer { lines.close() }
            StandardStreams.writeLine("watching " + watched(lines, pinMap) + " of " + chip.info.shortDescription + "; Ctrl-C to stop")
            return try monitor(lines, raw: raw, signals: signals)
        } catch {
            StandardStreams.writeLine("shfl gpio-monitor: " + error.description, toError: true)
            return 1
        }
    }

    /// "PLAY on GPIO17 (pin 11), SKIP on GPIO27 (pin 13)".
    static func watched(_ lines: some ButtonLines, _ pinMap: BoardPinMap) -> String {
        var text = ""
        for button in lines.buttons {
            text += (text.isEmpty ? "" : ", ") + pinMap.placeDescription(of: .button(button))
        }
        return text
    }

    /// Prints edges (with `raw`), settled changes and gestures until SIGINT or SIGTERM (exit 0).
    static func monitor(_ lines: some ButtonLines, raw: Bool, signals: SignalDescriptor) throws(DeviceError) -> Int32 {
        let clock = SystemMonotonicClock()
        var loop = try LoopDescriptors(lines: lines, signals: signals)
        defer { loop.close() }
        var levels: [Button: ButtonLevel] = [:]
        for button in lines.buttons {
            let level = try lines.level(of: button)
            levels[button] = level
            if level == .pressed {
                StandardStreams.writeLine(button.description + " is down: it counts again once released")
            }
        }
        let start = clock.now
        var input = ButtonInput(settings: .standard, initialLevels: levels, now: start)
        func stamp(_ instant: Instant) -> String {
            "+" + (instant - start).roundedMillisecondsDescription
        }
        while true {
            let wake = try loop.wait(until: input.nextDeadline)
            if wake.signal != nil { return 0 }
            var edges: [ButtonEdge] = []
            if wake.linesReady { try lines.readEdges(into: &edges) }
            if raw {
                for edge in edges {
                    StandardStreams.writeLine(stamp(edge.time) + " edge " + edge.button.description + " " + edge.level.description)
                }
            }
            var changes: [SettledLevelChange] = []
            let gestures = input.handle(edges, now: clock.now, levelChanges: &changes)
            // Changes and gestures in time order (a gesture at a settled release comes after it).
            var changeIndex = 0
            for gesture in gestures {
                while changeIndex < changes.count, changes[changeIndex].time <= gesture.time {
                    StandardStreams.writeLine(settledLine(changes[changeIndex], stamp))
                    changeIndex += 1
                }
                StandardStreams.writeLine(stamp(gesture.time) + " gesture " + gesture.gesture.description + " (" + gesture.button.description + ")")
            }
            for change in changes[changeIndex...] { StandardStreams.writeLine(settledLine(change, stamp)) }
        }
    }

    /// "+1254.6ms PLAY pressed (3 edges over 1.2ms)".
    static func settledLine(_ change: SettledLevelChange, _ stamp: (Instant) -> String) -> String {
        stamp(change.time) + " " + change.button.description + " " + change.level.description + " ("
            + String(change.edgeCount) + (change.edgeCount == 1 ? " edge" : " edges") + " over "
            + change.bounceDuration.roundedMillisecondsDescription + ")"
    }
}
