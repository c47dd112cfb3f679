import ShflCore
import ShflMedia

/// What `shfl run` is told: where sticks come from, where audio goes, where state lives.
/// Defaults are the product's; tests and the demo override them on the command line.
struct DaemonOptions {
    var audioDevice: String
    var bufferTime: UInt32
    var periodTime: UInt32
    var mixerCard: String?
    var realTimePriority: Int32?
    var lockMemory: Bool
    /// Pace audio to real time (for the ALSA null and file outputs, which have no clock).
    var paceAudio = false
    var stateDirectory: String
    var runtimeDirectory: String
    /// "udev", or a folder whose subfolders stand for sticks.
    var media: String
    /// Which libudev monitor: "auto" (udevd's when it runs), "udev", or "kernel" (raw uevents:
    /// the one that works under systemd's PrivateNetwork=yes, where udevd's events do not
    /// arrive; the stick's filesystem is then read from its superblock).
    var udevSource: String
    /// The control socket ("none": no socket).
    var controlSocket: String
    /// Write the LED to this trace file instead of a GPIO line.
    var ledTrace: String?
    var policy: SelectionPolicy
    var scanLimits: ScanLimits
    var player: PlayerSettings
    var gestures: GestureSettings
    var verbose = false
    /// The configuration's [media] section (accepted filesystems; scan limits are above).
    var mediaConfiguration: MediaConfiguration
    /// Pin map name or file (nil: detect the board), and the LED polarity override.
    var board: String?
    var ledPolarity: LinePolarity?
    /// Simulated buttons (through the control socket) instead of GPIO.
    var simulatedButtons = false

    /// The product's defaults: those of `Configuration()` (one place for every default).
    init() {
        self.init(configuration: Configuration())
    }

    /// The options a configuration file describes (flags may override them after).
    init(configuration: Configuration) {
        let audio = configuration.audio
        audioDevice = audio.device
        bufferTime = audio.bufferMicroseconds
        periodTime = audio.periodMicroseconds
        realTimePriority = audio.realTimePriority.map { Int32(truncatingIfNeeded: $0) }
        mixerCard = nil
        lockMemory = audio.lockMemory
        switch audio.mixer {
        case .automatic: mixerCard = nil
        case .software: mixerCard = "none"
        case .card(let card): mixerCard = card
        }
        player = configuration.player
        policy = configuration.selectionPolicy
        gestures = configuration.gestures
        mediaConfiguration = configuration.media
        scanLimits = ScanLimits(configuration.media)
        switch configuration.media.source {
        case .udev: media = "udev"; udevSource = "auto"
        case .kernel: media = "udev"; udevSource = "kernel"
        case .directory(let folder): media = folder; udevSource = "auto"
        }
        stateDirectory = configuration.system.stateDirectory
        runtimeDirectory = configuration.system.runtimeDirectory
        controlSocket = configuration.system.controlSocket
        board = configuration.board.pinMap
        ledPolarity = configuration.board.ledPolarity
    }

    static let usage = "usage: shfl run [--config FILE (default /boot/firmware/shfl.ini)] [--board NAME|FILE] [--simulated-buttons] [--media udev|FOLDER] [--udev-source auto|udev|kernel] [--device PCM] [--buffer-time US] [--period-time US] [--state-dir DIR] [--led-trace FILE] [--control SOCKET|none] [--policy NAME] [--volume 0-100] [--pace] [--no-autoplay] [--no-rt] [--verbose]"

    /// Parses the arguments after `run` over `base` (the configuration file's options); nil and
    /// a message on a bad one. `--config PATH` is read by the caller and skipped here.
    static func parse(_ arguments: [String], base: DaemonOptions = DaemonOptions()) -> (DaemonOptions?, String?) {
        var options = base
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let value: String? = index + 1 < arguments.count ? arguments[index + 1] : nil
            var consumed = 2
            switch argument {
            case "--no-autoplay":
                options.player.autoplay = false
                consumed = 1
            case "--no-rt":
                options.realTimePriority = nil
                consumed = 1
            case "--verbose":
                options.verbose = true
                consumed = 1
            case "--pace":
                options.paceAudio = true
                consumed = 1
            case "--simulated-buttons":
                options.simulatedButtons = true
                consumed = 1
            case "--config":
                consumed = 2
            case "--media", "--device", "--buffer-time", "--period-time", "--state-dir", "--led-trace", "--policy", "--mixer", "--volume", "--control", "--udev-source", "--board":
                guard let value else { return (nil, argument + " needs a value") }
                switch argument {
                case "--media": options.media = value
                case "--device": options.audioDevice = value
                case "--mixer": options.mixerCard = value
                case "--control": options.controlSocket = value
                case "--board": options.board = value
                case "--udev-source":
                    guard ["auto", "udev", "kernel"].contains(value) else { return (nil, "bad --udev-source '" + value + "' (auto, udev or kernel)") }
                    options.udevSource = value
                case "--state-dir": options.stateDirectory = value
                case "--volume":
                    guard let level = Int(value), (0...100).contains(level) else { return (nil, "bad --volume '" + value + "' (0-100)") }
                    let volume = options.player.volume
                    options.player.volume = VolumeSettings(initial: level, minimum: volume.minimum, maximum: volume.maximum, step: volume.step)
                case "--led-trace": options.ledTrace = value
                case "--policy":
                    guard let policy = SelectionPolicy(configName: value) else { return (nil, "unknown policy '" + value + "'") }
                    options.policy = policy
                case "--buffer-time":
                    guard let number = UInt32(value) else { return (nil, "bad --buffer-time '" + value + "'") }
                    options.bufferTime = number
                default:
                    guard let number = UInt32(value) else { return (nil, "bad --period-time '" + value + "'") }
                    options.periodTime = number
                }
            default:
                return (nil, "unknown option '" + argument + "'")
            }
            index += consumed
        }
        return (options, nil)
    }
}
