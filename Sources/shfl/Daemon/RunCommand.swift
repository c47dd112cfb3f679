import CSystem
import ShflConfig
import ShflCore
import ShflGPIO
import ShflMedia
import ShflService
import ShflSimulated
import ShflSystem

/// `shfl run`: picks the adapters for the options and starts the daemon.
enum RunCommand {
    static let defaultConfiguration = "/boot/firmware/shfl.ini"

    static func run(_ arguments: [String]) -> Int32 {
        let command: CommandOptions
        do {
            command = try CommandOptions.parse(arguments[...], valued: DaemonOptions.valuedOptions, flags: DaemonOptions.flagOptions + ["--help", "-h"])
        } catch {
            return usage(error.message)
        }
        // `shfl help` points here for the options.
        if command.isSet("--help") || command.isSet("-h") {
            StandardStreams.writeLine(DaemonOptions.usage)
            return 0
        }
        let loaded = InihConfigurationFile.load(path: command.value("--config") ?? defaultConfiguration)
        for message in loaded.logMessages { StandardStreams.log(message) }
        var options = DaemonOptions(configuration: loaded.configuration)
        if let problem = options.apply(command) { return usage(problem) }
        // Block the signals before any thread starts, so only the event loop receives them.
        let signals: SignalDescriptor
        do {
            signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
        } catch {
            return fail("signals: " + error.description)
        }
        let clock = SystemMonotonicClock()
        do throws(DaemonError) {
            let (lines, light) = try makeButtonsAndLight(options, clock: clock)
            let (monitor, mounter) = try makeMedia(options)
            let store: FileStateStore
            do {
                store = try FileStateStore(directory: options.stateDirectory)
            } catch {
                throw DaemonError("state directory: " + error.description)
            }
            let (control, notifier) = try makeService(options)
            let daemon = try Daemon(options: options, lines: lines, light: light, monitor: monitor, mounter: mounter, store: store, signals: signals, control: control, notifier: notifier)
            return daemon.run()
        } catch {
            return fail(error.description)
        }
    }

    /// The control socket (unless "none") and the systemd notifier (a no-op outside systemd).
    static func makeService(_ options: DaemonOptions) throws(DaemonError) -> (UnixControlServer?, SystemdNotifier) {
        var control: UnixControlServer?
        if options.controlSocket != "none" {
            do {
                control = try UnixControlServer(path: options.controlSocket)
            } catch {
                throw DaemonError("control socket: " + error.description)
            }
        }
        do {
            return (control, try SystemdNotifier.fromEnvironment())
        } catch {
            throw DaemonError("systemd: " + error.description)
        }
    }

    /// The buttons and LED: GPIO lines from the board's pin map; simulated buttons (pressed
    /// through the control socket) and a trace-file LED when asked to (`--led-trace`,
    /// `--simulated-buttons`), or when the GPIO cannot be had — logged, and the player plays on.
    static func makeButtonsAndLight(_ options: DaemonOptions, clock: SystemMonotonicClock) throws(DaemonError) -> (any ButtonLines, any StatusLight) {
        if options.ledTrace == nil && !options.simulatedButtons {
            do throws(DeviceError) {
                var pinMap: BoardPinMap
                do throws(BoardFileError) {
                    if let board = options.board {
                        pinMap = try BoardFiles.load(board)
                    } else {
                        pinMap = try BoardFiles.detect()
                    }
                } catch {
                    throw DeviceError(error.description)
                }
                if let polarity = options.ledPolarity { pinMap.ledPolarity = polarity }
                let chip = try GPIODChip.open(label: pinMap.chipLabel, owner: "board " + pinMap.name)
                let light = try GPIODStatusLight(chip: chip, pinMap: pinMap)
                let lines = try GPIODButtonLines(chip: chip, pinMap: pinMap)
                StandardStreams.log(LogMessage(.info, "buttons and LED on " + chip.info.description + " (board " + pinMap.name + ")"))
                return (lines, light)
            } catch {
                StandardStreams.log(LogMessage(.error, "GPIO: " + error.description + "; buttons only through the control socket, LED traced to " + options.runtimeDirectory + "/led"))
            }
        }
        let lines: any ButtonLines
        do {
            lines = try SocketPairButtonLines(buttons: [.play, .skip, .volumeUp, .volumeDown])
        } catch {
            throw DaemonError(error.description)
        }
        _ = mkdir(options.runtimeDirectory, 0o755)
        return (lines, try traceLight(options.ledTrace ?? options.runtimeDirectory + "/led", clock: clock))
    }

    static func traceLight(_ path: String, clock: SystemMonotonicClock) throws(DaemonError) -> any StatusLight {
        do {
            return try TraceFileStatusLight(path: path, clock: clock)
        } catch {
            throw DaemonError(error.description)
        }
    }

    static func makeMedia(_ options: DaemonOptions) throws(DaemonError) -> (any MediaMonitor, any MediaMounter) {
        if options.media == "udev" {
            do {
                let source: UdevEventSource = options.udevSource == "kernel" ? .kernel : options.udevSource == "udev" ? .udev : .automatic()
                let rules = MediaRules.configured(options.mediaConfiguration, kernelFilesystems: MediaRules.kernelFilesystems())
                let monitor = try UdevMediaMonitor(rules: rules, source: source)
                // mount(2) on the loading thread, not the event loop.
                return (monitor, DeferredMediaMounter(SystemMediaMounter(runtimeDirectory: options.runtimeDirectory + "/media")))
            } catch {
                throw DaemonError(error.description)
            }
        }
        do {
            return (try DirectoryMediaMonitor(folder: options.media), DirectoryMediaMounter())
        } catch {
            throw DaemonError(error.description)
        }
    }

    private static func usage(_ problem: String) -> Int32 {
        StandardStreams.writeLine("shfl run: " + problem, toError: true)
        StandardStreams.writeLine(DaemonOptions.usage, toError: true)
        return 2
    }

    private static func fail(_ message: String) -> Int32 {
        StandardStreams.log(LogMessage(.error, "shfl run: " + message))
        return 1
    }
}
