import ShflAudio
import ShflCore
import ShflGPIO
import ShflMedia
import ShflSystem

/// `shfl COMMAND [ARGS]`: picks the command; each command lives in its own file.
enum ShflCommand {
    static let version = "0.1.0"

    /// The commands, in the order of the usage text and of the shfl(1) man page (both are made
    /// from this table): the words a user types, what they do, and the command's own usage
    /// when it has options. Test aids (control-echo, state-writer, man) are left out.
    static let commands: [CommandHelp] = [
        CommandHelp("version", "", "print the version and the linked libraries"),
        CommandHelp("run", "[OPTIONS]", "the player daemon (see shfl run --help)", usage: DaemonOptions.usage),
        CommandHelp("demo", "[FOLDER]", "the whole player in this terminal: keyboard buttons, LED drawn, audio", usage: DemoCommand.usage),
        CommandHelp("self-check", "", "run the core's built-in self-check and print its checksums"),
        CommandHelp("play-file", "FILE... [--device PCM]", "play MP3 files through libmpg123 and ALSA", usage: PlayFileCommand.usage),
        CommandHelp("scan", "PATH", "show the tracks a stick would load, \"N/120\", the policy and every skip", usage: ScanCommand.usage),
        CommandHelp("config", "[--config PATH]", "check a configuration file: its problems and the settings in effect", usage: ConfigCommand.usage),
        CommandHelp("board-check", "", "test the wiring: blink the LED, then ask for each button", usage: BoardCheckCommand.usage),
        CommandHelp("gpio-monitor", "", "print the buttons' debounced changes and gestures live", usage: GPIOMonitorCommand.usage),
        CommandHelp("status | play | pause | toggle | skip | reshuffle | capacity", "", "ask the running daemon", usage: ControlCommand.usage),
        CommandHelp("volume +|-|N, press BUTTON, release BUTTON", "", "(BUTTON: PLAY SKIP VOL+ VOL-; all take --socket PATH)"),
    ]

    /// "usage: shfl COMMAND" and one line per command of `commands`.
    static var usage: String {
        var text = "usage: shfl COMMAND"
        for command in commands {
            var left = command.name
            if !command.arguments.isEmpty { left += " " + command.arguments }
            let padding = left.count < 12 ? 13 - left.count : 2
            text += "\n  " + left + String(repeating: " ", count: padding) + command.summary
        }
        return text
    }

    static func run(_ arguments: [String]) -> Int32 {
        let command = arguments.count > 1 ? arguments[1] : ""
        switch command {
        case "version", "--version":
            printVersion()
            return 0
        case "self-check":
            return SelfCheck.run()
        case "run":
            return RunCommand.run(Array(arguments.dropFirst(2)))
        case "demo":
            return DemoCommand.run(Array(arguments.dropFirst(2)))
        case "play-file":
            return PlayFileCommand.run(Array(arguments.dropFirst(2)))
        case "scan": return ScanCommand.run(Array(arguments.dropFirst(2)))
        case "config": return ConfigCommand.run(Array(arguments.dropFirst(2)))
        case "status", "play", "pause", "toggle", "skip", "reshuffle", "capacity", "volume", "press", "release":
            return ControlCommand.run(command, Array(arguments.dropFirst(2)))
        case "control-echo": return ControlEchoCommand.run(Array(arguments.dropFirst(2)))  // test aid, not in the usage
        case "state-writer": return StateWriterCommand.run(Array(arguments.dropFirst(2)))  // test aid, not in the usage
        case "man": return ManualCommand.run(Array(arguments.dropFirst(2)))  // for the Debian package, not in the usage
        case "board-check":
            return BoardCheckCommand.run(arguments.dropFirst(2))
        case "gpio-monitor":
            return GPIOMonitorCommand.run(arguments.dropFirst(2))
        case "help", "--help", "-h":
            StandardStreams.writeLine(usage)
            return 0
        case "":
            StandardStreams.writeLine(usage, toError: true)
            return 2
        default:
            StandardStreams.writeLine("shfl: unknown command '" + command + "'", toError: true)
            StandardStreams.writeLine(usage, toError: true)
            return 2
        }
    }

    static func printVersion() {
        StandardStreams.writeLine("shfl " + version + " (" + buildKind + ")")
        StandardStreams.writeLine("libmpg123 API " + String(AudioLibraries.mpg123APIVersion))
        StandardStreams.writeLine("alsa-lib " + AudioLibraries.alsaVersion)
        StandardStreams.writeLine("libgpiod " + GPIODLibrary.version)
        StandardStreams.writeLine("libudev " + (UdevLibrary.isUsable ? "usable" : "unusable"))
    }

    static var buildKind: String {
        #if hasFeature(Embedded)
        "firmware"
        #else
        "host"
        #endif
    }
}

/// One line of the usage text and one entry of shfl(1).
struct CommandHelp {
    /// The words typed: "board-check", or "status | play | pause" for a family of commands.
    var name: String
    /// What follows the name in the summary line: "PATH", "[OPTIONS]".
    var arguments: String
    var summary: String
    /// The command's own usage text ("usage: shfl scan PATH [--policy ...]"), when it has one.
    var usage: String?

    init(_ name: String, _ arguments: String, _ summary: String, usage: String? = nil) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.usage = usage
    }
}
