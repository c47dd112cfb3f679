import CSystem
import ShflAudio
import ShflCore
import ShflMedia
import ShflService
import ShflSimulated
import ShflSystem

/// `shfl demo [FOLDER] [--device PCM]`: the whole player on a developer machine (SPEC §9). The
/// folder of MP3s (default: the generated demo stick) is plugged in as a stick; the keyboard
/// plays the buttons, the LED is drawn in the terminal, audio goes to the sound card, or, when
/// there is none, to a WAV file named on screen (paced to real time).
enum DemoCommand {
    static let usage = "usage: shfl demo [FOLDER (default .build-demo/stick)] [--device PCM] [--wav FILE (default " + defaultWAV + ")]"
    /// Where the audio goes without a sound card (and without --device): one file, replaced
    /// by each run, outside the runtime folder the demo removes.
    static let defaultWAV = "/tmp/shfl-demo.wav"
    static let keys = """
        keys: space = PLAY   n = SKIP   h = hold PLAY (capacity)   r = hold SKIP (reshuffle)
              + / - = volume   u = unplug the stick   p = plug it back   q = quit
        """

    static func run(_ arguments: [String]) -> Int32 {
        let command: CommandOptions
        do {
            command = try CommandOptions.parse(arguments[...], valued: ["--device", "--wav"], flags: [], positionals: true)
        } catch {
            StandardStreams.writeLine("shfl demo: " + error.message + "\n" + usage, toError: true)
            return 2
        }
        guard command.positionals.count <= 1 else {
            StandardStreams.writeLine("shfl demo: one folder at most\n" + usage, toError: true)
            return 2
        }
        let folder = command.positionals.first ?? ".build-demo/stick"
        let device = command.value("--device")
        let wav = command.value("--wav") ?? defaultWAV
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0, FileStatus.Kind(mode: folderStatus.st_mode) == .directory else {
            StandardStreams.writeLine("shfl demo: no folder '" + folder + "' (make demo generates one)", toError: true)
            return 2
        }
        let absolute = folder.hasPrefix("/") ? folder : currentDirectory() + "/" + folder
        let runtime = "/tmp/shfl-demo-" + String(getpid())
        let sticks = runtime + "/sticks"
        _ = mkdir(runtime, 0o755)
        _ = mkdir(sticks, 0o755)
        _ = mkdir(runtime + "/state", 0o755)
        // The runtime folder (the stick's link, the state, the control socket) goes with the
        // demo, however it ends; the WAV, if any, is outside it and stays.
        defer {
            do {
                try FileDescriptor.currentDirectory.removeTree(Array(runtime.utf8))
            } catch {
                StandardStreams.writeLine("shfl demo: cannot remove " + runtime + ": " + error.description, toError: true)
            }
        }

        var options = DaemonOptions()
        options.media = sticks
        options.stateDirectory = runtime + "/state"
        options.runtimeDirectory = runtime
        options.realTimePriority = nil
        options.controlSocket = runtime + "/control"
        if let device {
            options.audioDevice = device
        } else if ALSAAudioSink.canOpen(device: "default") {
            options.audioDevice = "default"
        } else {
            options.audioDevice = ALSAAudioSink.wavFile(path: wav)
            options.audioDeviceLabel = "WAV file " + wav
            options.paceAudio = true
            StandardStreams.writeLine("no sound card here: the audio goes to " + wav, toError: true)
        }
        StandardStreams.writeLine("shfl demo: stick " + absolute + "\n" + keys, toError: true)

        let signals: SignalDescriptor
        do {
            signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
        } catch {
            StandardStreams.writeLine("shfl demo: signals: " + error.description, toError: true)
            return 1
        }
        // Plugged in before the watcher starts: found by the start-up enumeration, once.
        let link = sticks + "/DEMO-0001"
        _ = symlink(absolute, link)
        let lines: SocketPairButtonLines
        let monitor: DirectoryMediaMonitor
        do {
            lines = try SocketPairButtonLines(buttons: [.play, .skip, .volumeUp, .volumeDown])
            monitor = try DirectoryMediaMonitor(folder: sticks)
        } catch {
            StandardStreams.writeLine("shfl demo: " + error.description, toError: true)
            return 1
        }
        let terminal = RawTerminal()
        let keyboard: SystemThread
        do {
            keyboard = try startKeyboard(lines.sender, plug: { _ = symlink(absolute, link) }, unplug: { _ = unlink(link) })
        } catch {
            terminal.restore()
            StandardStreams.writeLine("shfl demo: keyboard: " + error.description, toError: true)
            return 1
        }
        var exitStatus: Int32 = 1
        do throws(DaemonError) {
            let store: FileStateStore
            do {
                store = try FileStateStore(directory: options.stateDirectory)
            } catch {
                throw DaemonError(error.description)
            }
            let (control, notifier) = try RunCommand.makeService(options)
            let daemon = try Daemon(options: options, lines: lines, light: TerminalStatusLight(), monitor: monitor, mounter: DirectoryMediaMounter(), store: store, signals: signals, control: control, notifier: notifier)
            exitStatus = daemon.run()
        } catch {
            StandardStreams.writeLine("shfl demo: " + error.description, toError: true)
        }
        terminal.restore()
        _ = keyboard
        StandardStreams.writeLine("", toError: true)
        return exitStatus
    }

    /// A thread turning keys into button edges (and stick plugging); q, or the end of input,
    /// stops the demo with SIGTERM, which the daemon's signal descriptor receives.
    static func startKeyboard(_ sender: SocketPairButtonLines.Sender, plug: @escaping () -> Void, unplug: @escaping () -> Void) throws(Errno) -> SystemThread {
        try SystemThread {
            let clock = SystemMonotonicClock()
            var byte: UInt8 = 0
            while read(0, &byte, 1) == 1 {
                switch byte {
                case UInt8(ascii: " "): tap(.play, holding: 80, sender, clock)
                case UInt8(ascii: "n"): tap(.skip, holding: 80, sender, clock)
                case UInt8(ascii: "h"): tap(.play, holding: 2_300, sender, clock)
                case UInt8(ascii: "r"): tap(.skip, holding: 2_300, sender, clock)
                case UInt8(ascii: "+"), UInt8(ascii: "="): tap(.volumeUp, holding: 80, sender, clock)
                case UInt8(ascii: "-"): tap(.volumeDown, holding: 80, sender, clock)
                case UInt8(ascii: "u"): unplug()
                case UInt8(ascii: "p"): plug()
                case UInt8(ascii: "q"), 3, 4: _ = kill(getpid(), SIGTERM); return
                default: break
                }
            }
            _ = kill(getpid(), SIGTERM)
        }
    }

    /// A clean press of `button` held for `milliseconds` (this thread sleeps; the loop does not).
    static func tap(_ button: Button, holding milliseconds: UInt32, _ sender: SocketPairButtonLines.Sender, _ clock: SystemMonotonicClock) {
        try? sender.press(button, at: clock.now)
        usleep(milliseconds * 1_000)
        try? sender.release(button, at: clock.now)
    }

    static func currentDirectory() -> String {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let found = buffer.withUnsafeMutableBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { getcwd($0.baseAddress, $0.count) != nil }
        }
        guard found, let end = buffer.firstIndex(of: 0) else { return "." }
        return String(decoding: buffer[0..<end], as: UTF8.self)
    }
}

/// Standard input in raw mode (no echo, a key at a time) while it is a terminal.
struct RawTerminal {
    private var saved = termios()
    private let active: Bool

    init() {
        var settings = termios()
        guard isatty(0) == 1, tcgetattr(0, &settings) == 0 else {
            active = false
            return
        }
        saved = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        active = tcsetattr(0, TCSANOW, &settings) == 0
    }

    func restore() {
        guard active else { return }
        var settings = saved
        _ = tcsetattr(0, TCSANOW, &settings)
    }
}
