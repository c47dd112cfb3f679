import ShflCore
import ShflMedia

/// What `shfl run` is told: where sticks come from, where audio goes, where state lives.
/// Defaults are the product's; tests and the demo override them on the command line.
struct DaemonOptions {
    var audioDevice = "default"
    var bufferTime: UInt32 = 200_000
    var periodTime: UInt32 = 20_000
    var mixerCard: String?
    var realTimePriority: Int32? = 50
    var lockMemory = false
    /// Pace audio to real time (for the ALSA null and file outputs, which have no clock).
    var paceAudio = false
    var stateDirectory = "/var/lib/shfl"
    var runtimeDirectory = "/run/shfl"
    /// "udev", or a folder whose subfolders stand for sticks.
    var media = "udev"
    /// Which libudev monitor: "auto" (udevd's when it runs), "udev", or "kernel" (raw uevents:
    /// the one that works under systemd's PrivateNetwork=yes, where udevd's events do not
    /// arrive; the stick's filesystem is then read from its superblock).
    var udevSource = "auto"
    /// The control socket ("none": no socket).
    var controlSocket = "/run/shfl/control"
    /// Write the LED to this trace file instead of a GPIO line.
    var ledTrace: String?
    var policy = SelectionPolicy.default
    var scanLimits = ScanLimits.standard
    var player = PlayerSettings()
    var gestures = GestureSettings.standard
    var verbose = false

    static let usage = "usage: shfl run [--media udev|FOLDER] [--udev-source auto|udev|kernel] [--device PCM] [--buffer-time US] [--period-time US] [--state-dir DIR] [--led-trace FILE] [--control SOCKET|none] [--policy NAME] [--volume 0-100] [--pace] [--no-autoplay] [--no-rt] [--verbose]"

    /// Parses the arguments after `run`; nil and a message on a bad one.
    static func parse(_ arguments: [String]) -> (DaemonOptions?, String?) {
        var options = DaemonOptions()
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
            case "--media", "--device", "--buffer-time", "--period-time", "--state-dir", "--led-trace", "--policy", "--mixer", "--volume", "--control", "--udev-source":
                guard let value else { return (nil, argument + " needs a value") }
                switch argument {
                case "--media": options.media = value
                case "--device": options.audioDevice = value
                case "--mixer": options.mixerCard = value
                case "--control": options.controlSocket = value
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
