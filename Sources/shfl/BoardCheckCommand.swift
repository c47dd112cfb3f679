import CSystem
import ShflCore
import ShflGPIO
import ShflSimulated
import ShflSystem

/// `shfl board-check`: the bring-up test for real wiring (SPEC §9). Blinks the LED three
/// times, then asks for each button in turn and reports each press and release with its
/// contact bounce; exits 1 naming every button not seen in time, 0 when all were. The test
/// itself is `BoardCheck` (pure); this is its event loop on the real lines.
enum BoardCheckCommand {
    static let usage = """
        usage: shfl board-check [--board NAME|FILE.ini] [--buttons play,skip,vol+,vol-] [--timeout SECONDS] [--simulated]
          --board      the pin map (board/NAME.ini); recognised from the device tree if not given
          --buttons    the buttons to ask for (default: every button the pin map wires)
          --timeout    how long to wait for each button (default 20)
          --simulated  no GPIO: buttons from a script on standard input ("press PLAY",
                       "wait 200", ...), the LED's changes printed at the end
        """

    static func run(_ arguments: ArraySlice<String>) -> Int32 {
        let options: CommandOptions
        let buttons: [Button]?
        let timeout: Duration
        do throws(UsageError) {
            options = try CommandOptions.parse(arguments, valued: ["--board", "--buttons", "--timeout"], flags: ["--simulated"])
            buttons = try options.buttons()
            timeout = try options.seconds("--timeout", default: .seconds(20))
        } catch {
            StandardStreams.writeLine("shfl board-check: " + error.message, toError: true)
            StandardStreams.writeLine(usage, toError: true)
            return 2
        }
        guard let pinMap = loadPinMap(options.value("--board"), command: "board-check") else { return 1 }
        StandardStreams.writeLine(pinMap.description)
        for button in buttons ?? [] where pinMap.buttons[button] == nil {
            StandardStreams.writeLine("shfl board-check: " + pinMap.name + " wires no " + button.description + " button", toError: true)
            return 1
        }
        do throws(DeviceError) {
            // First, before any thread exists: every thread then has SIGINT and SIGTERM blocked.
            let signals = try LoopDescriptors.blockSignals()
            defer { signals.close() }
            if options.isSet("--simulated") {
                return try simulated(pinMap: pinMap, buttons: buttons ?? pinMap.wiredButtons, timeout: timeout, signals: signals)
            }
            let chip = try GPIODChip.open(label: pinMap.chipLabel, owner: "board " + pinMap.name)
            defer { chip.close() }
            StandardStreams.writeLine("chip: " + chip.info.description)
            let light = try GPIODStatusLight(chip: chip, pinMap: pinMap, consumer: "shfl board-check")
            defer { light.close() }
            let lines = try GPIODButtonLines(chip: chip, pinMap: pinMap, buttons: buttons, consumer: "shfl board-check")
            defer { lines.close() }
            return try check(lines: lines, light: light, pinMap: pinMap, timeout: timeout, signals: signals)
        } catch {
            StandardStreams.writeLine("shfl board-check: " + error.description, toError: true)
            return 1
        }
    }

    /// The check on `SocketPairButtonLines` fed from standard input, with the LED in memory:
    /// its changes are printed at the end, in whole milliseconds from the start.
    static func simulated(pinMap: BoardPinMap, buttons: [Button], timeout: Duration, signals: SignalDescriptor) throws(DeviceError) -> Int32 {
        let lines = try SocketPairButtonLines(buttons: buttons)
        let light = SimulatedStatusLight(clock: SystemMonotonicClock())
        do {
            _ = try ButtonScriptFeeder.start(sending: lines.sender, stopAtEnd: false)
        } catch {
            throw error.deviceError("simulated buttons: pthread_create")
        }
        let status = try check(lines: lines, light: light, pinMap: pinMap, timeout: timeout, signals: signals)
        var text = "simulated LED:"
        if let first = light.trace.first {
            for change in light.trace {
                text += (change.lit ? " on@" : " off@") + String((change.instant - first.instant).milliseconds) + "ms"
            }
        }
        StandardStreams.writeLine(text)
        return status
    }

    /// The event loop: waits in `poll()` on the button lines, the signals and one timer, armed
    /// at the earliest of the debounce, gesture and check deadlines and the LED's next change
    /// (as the daemon does); returns the exit status.
    static func check(
        lines: some ButtonLines, light: some StatusLight, pinMap: BoardPinMap, timeout: Duration, signals: SignalDescriptor
    ) throws(DeviceError) -> Int32 {
        let clock = SystemMonotonicClock()
        var loop = try LoopDescriptors(lines: lines, signals: signals)
        defer { loop.close() }
        var levels: [Button: ButtonLevel] = [:]
        for button in lines.buttons { levels[button] = try lines.level(of: button) }
        let start = clock.now
        var input = ButtonInput(settings: .standard, initialLevels: levels, now: start)
        var check = BoardCheck(buttons: lines.buttons, timeout: timeout, start: start)
        for event in check.begin(levels: levels) { StandardStreams.writeLine(event.message(on: pinMap)) }
        var now = start
        while !check.isFinished {
            try light.setLit(check.light.isLit(at: now))
            let deadline = earliest(earliest(input.nextDeadline, check.nextDeadline), check.light.nextChange(after: now))
            let wake = try loop.wait(until: deadline)
            if let signal = wake.signal {
                StandardStreams.writeLine("board-check: stopped by signal " + String(signal))
                return 128 + signal
            }
            var edges: [ButtonEdge] = []
            if wake.linesReady { try lines.readEdges(into: &edges) }
            now = clock.now
            var changes: [SettledLevelChange] = []
            _ = input.handle(edges, now: now, levelChanges: &changes)
            for event in check.handle(changes, now: now) { StandardStreams.writeLine(event.message(on: pinMap)) }
        }
        try light.setLit(check.light.isLit(at: now))
        return check.failures.isEmpty ? 0 : 1
    }

    /// The pin map `--board` names, or the detected one; nil after printing why there is none.
    static func loadPinMap(_ board: String?, command: String) -> BoardPinMap? {
        do {
            if let board { return try BoardFiles.load(board) }
            return try BoardFiles.detect()
        } catch {
            StandardStreams.writeLine("shfl " + command + ": " + error.description, toError: true)
            return nil
        }
    }

    static func earliest(_ first: Instant?, _ second: Instant?) -> Instant? {
        guard let first else { return second }
        guard let second else { return first }
        return first < second ? first : second
    }
}

/// The descriptors of a small event loop over button lines: the lines, one timer for every
/// deadline (the LED's next change included) and SIGINT/SIGTERM. Shared by `board-check` and
/// `gpio-monitor`; the daemon's event loop has the same shape with more descriptors.
struct LoopDescriptors {
    let lines: FileDescriptor
    let timer: TimerDescriptor
    let signals: SignalDescriptor
    private var poller = Poller()
    private let indices: (lines: Int, signals: Int)

    struct Wake {
        var linesReady: Bool
        var signal: Int32?
    }

    /// Blocks SIGINT and SIGTERM and returns their descriptor. Call it before starting any
    /// thread, so that no thread takes the signal instead of the loop.
    static func blockSignals() throws(DeviceError) -> SignalDescriptor {
        do {
            return try SignalDescriptor([SIGINT, SIGTERM])
        } catch {
            throw error.deviceError("event loop: signalfd")
        }
    }

    init(lines: some ButtonLines, signals: SignalDescriptor) throws(DeviceError) {
        self.lines = FileDescriptor(rawValue: lines.pollDescriptor)
        self.signals = signals
        do {
            timer = try TimerDescriptor()
        } catch {
            throw error.deviceError("event loop: timerfd")
        }
        let linesIndex = poller.watch(self.lines)
        poller.watch(timer.descriptor)
        indices = (linesIndex, poller.watch(signals.descriptor))
    }

    /// Arms the timer at `deadline` (nil: none), waits for any descriptor, and says what woke
    /// the loop. The timer needs no attention: the caller re-evaluates everything.
    mutating func wait(until deadline: Instant?) throws(DeviceError) -> Wake {
        do {
            try timer.arm(at: deadline)
            _ = try poller.wait()
        } catch {
            throw error.deviceError("event loop: poll")
        }
        timer.acknowledge()
        let signal = poller.isReady(indices.signals) ? signals.next() : nil
        return Wake(linesReady: poller.isReady(indices.lines), signal: signal)
    }

    /// Closes the timer (the signal descriptor belongs to the caller).
    func close() {
        timer.close()
    }
}
