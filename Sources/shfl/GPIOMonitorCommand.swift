import CSystem
import ShflCore
import ShflGPIO
import ShflSystem

/// `shfl gpio-monitor`: like libgpiod's `gpiomon`, but through Shfl's own layer: prints every
/// debounced level change (with its bounce) and every gesture as the player would see it,
/// live, until Ctrl-C. `--raw` adds every kernel edge. Times count from the start.
enum GPIOMonitorCommand {
    static let usage = """
        usage: shfl gpio-monitor [--board NAME|FILE.ini] [--buttons play,skip,vol+,vol-] [--raw]
          --board    the pin map (board/NAME.ini); recognised from the device tree if not given
          --buttons  the buttons to watch (default: every button the pin map wires)
          --raw      also print every edge the kernel reports, before debouncing
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        let options: CommandOptions
        let buttons: [Button]?
        do throws(UsageError) {
            options = try CommandOptions.parse(arguments, valued: ["--board", "--buttons"], flags: ["--raw"])
            buttons = try options.buttons()
        } catch {
            StandardStreams.writeLine("shfl gpio-monitor: " + error.message, toError: true)
            StandardStreams.writeLine(usage, toError: true)
            return 2
        }
        guard let pinMap = BoardCheckCommand.loadPinMap(options.value("--board"), command: "gpio-monitor") else { return 1 }
        do {
            let chip = try GPIODChip.open(label: pinMap.chipLabel, owner: "board " + pinMap.name)
            defer { chip.close() }
            let lines = try GPIODButtonLines(chip: chip, pinMap: pinMap, buttons: buttons, consumer: "shfl gpio-monitor")
            defer { lines.close() }
            var watched = ""
            for button in lines.buttons {
                watched += (watched.isEmpty ? "" : ", ") + pinMap.placeDescription(of: .button(button))
            }
            StandardStreams.writeLine("watching " + watched + " of " + chip.info.shortDescription + "; Ctrl-C to stop")
            return try monitor(lines, raw: options.isSet("--raw"))
        } catch {
            StandardStreams.writeLine("shfl gpio-monitor: " + error.description, toError: true)
            return 1
        }
    }

    /// Prints edges (with `raw`), settled changes and gestures until SIGINT or SIGTERM (exit 0).
    static func monitor(_ lines: some ButtonLines, raw: Bool) throws(DeviceError) -> Int32 {
        let clock = SystemMonotonicClock()
        var loop = try LoopDescriptors(lines: lines)
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
            "+" + (instant - start).millisecondsDescription
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
            + change.bounceDuration.millisecondsDescription + ")"
    }
}
