import ShflAudio
import ShflCore
import ShflGPIO
import ShflMedia
import ShflSystem

/// `shfl COMMAND [ARGS]`: picks the command; each command lives in its own file.
enum ShflCommand {
    static let version = "0.1.0"

    static let usage = """
        usage: shfl COMMAND
          version      print the version and the linked libraries
          run [OPTIONS]  the player daemon (see shfl run --help)
          demo [FOLDER]  the whole player in this terminal: keyboard buttons, LED drawn, audio
          self-check   run the core's built-in self-check and print its checksums
          play-file FILE... [--device PCM]   play MP3 files through libmpg123 and ALSA
          scan PATH    show the tracks a stick would load, "N/120", the policy and every skip
          config [--config PATH]  check a configuration file: its problems and the settings in effect
          board-check  test the wiring: blink the LED, then ask for each button
          gpio-monitor print the buttons' debounced changes and gestures live
          status | play | pause | toggle | skip | reshuffle | capacity   ask the running daemon
          volume +|-|N, press BUTTON, release BUTTON   (BUTTON: PLAY SKIP VOL+ VOL-; all take --socket PATH)
        """

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
