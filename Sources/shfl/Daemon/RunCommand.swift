import CSystem
import ShflCore
import ShflMedia
import ShflService
import ShflSimulated
import ShflSystem

/// `shfl run`: picks the adapters for the options and starts the daemon.
enum RunCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let (parsed, problem) = DaemonOptions.parse(arguments)
        guard let options = parsed else {
            StandardStreams.writeLine("shfl run: " + (problem ?? "bad arguments"), toError: true)
            StandardStreams.writeLine(DaemonOptions.usage, toError: true)
            return 2
        }
        // Block the signals before any thread starts, so only the event loop receives them.
        let signals: SignalDescriptor
        do {
            signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
        } catch {
            return fail("signals: " + error.description)
        }
        let clock = SystemMonotonicClock()
        do throws(DaemonError) {
            let light = try makeLight(options, clock: clock)
            let lines = try makeLines(options)
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

    static func makeLight(_ options: DaemonOptions, clock: SystemMonotonicClock) throws(DaemonError) -> any StatusLight {
        guard let path = options.ledTrace else {
            // GPIO comes with the board configuration; until then the LED is a trace in /run.
            return try traceLight(options.runtimeDirectory + "/led", clock: clock)
        }
        return try traceLight(path, clock: clock)
    }

    static func traceLight(_ path: String, clock: SystemMonotonicClock) throws(DaemonError) -> any StatusLight {
        do {
            return try TraceFileStatusLight(path: path, clock: clock)
        } catch {
            throw DaemonError(error.description)
        }
    }

    static func makeLines(_ options: DaemonOptions) throws(DaemonError) -> any ButtonLines {
        do {
            return try SocketPairButtonLines(buttons: [.play, .skip, .volumeUp, .volumeDown])
        } catch {
            throw DaemonError(error.description)
        }
    }

    static func makeMedia(_ options: DaemonOptions) throws(DaemonError) -> (any MediaMonitor, any MediaMounter) {
        if options.media == "udev" {
            do {
                let source: UdevEventSource = options.udevSource == "kernel" ? .kernel : options.udevSource == "udev" ? .udev : .automatic()
                let monitor = try UdevMediaMonitor(rules: MediaRules.forThisKernel(), source: source)
                return (monitor, SystemMediaMounter(runtimeDirectory: options.runtimeDirectory + "/media"))
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

    private static func fail(_ message: String) -> Int32 {
        StandardStreams.log(LogMessage(.error, "shfl run: " + message))
        return 1
    }
}
