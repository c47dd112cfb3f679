import ShflCore
import ShflMedia

/// What `shfl run` is told: where sticks come from, where audio goes, where state lives.
/// Defaults are the product's; tests and the demo override them on the command line.
struct DaemonOptions {
    var audioDevice: String
    /// How the log names the audio device, when not by `audioDevice` itself (the demo's WAV
    /// file is a whole PCM definition: it is named by its file).
    var audioDeviceLabel: String?
    var bufferTime: UInt32
    var periodTime: UInt32
    /// Which volume control: the card's mixer (`automatic` or a named card) or software gain.
    var mixer: MixerChoice
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
        lockMemory = audio.lockMemory
        mixer = audio.mixer
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

    static let usage = "usage: shfl run [--config FILE (default /boot/firmware/shfl.ini)] [--board NAME|FILE] [--simulated-buttons] [--media udev|FOLDER] [--udev-source auto|udev|kernel] [--device PCM] [--buffer-time US] [--period-time US] [--state-dir DIR] [--led-trace FILE] [--control SOCKET|none] [--policy NAME] [--mixer auto|software|CARD] [--volume 0-100] [--pace] [--no-autoplay] [--no-rt] [--verbose]"

    /// The options `shfl run` takes with a value, and alone.
    static let valuedOptions = [
        "--config", "--media", "--device", "--buffer-time", "--period-time", "--state-dir", "--led-trace",
        "--policy", "--mixer", "--volume", "--control", "--udev-source", "--board",
    ]
    static let flagOptions = ["--no-autoplay", "--no-rt", "--verbose", "--pace", "--simulated-buttons"]

    /// Applies the command line over these options (the configuration file's); a message on a
    /// bad value. `--config` is the caller's: it chose the file these options came from.
    mutating func apply(_ command: CommandOptions) -> String? {
        if command.isSet("--no-autoplay") { player.autoplay = false }
        if command.isSet("--no-rt") { realTimePriority = nil }
        if command.isSet("--verbose") { verbose = true }
        if command.isSet("--pace") { paceAudio = true }
        if command.isSet("--simulated-buttons") { simulatedButtons = true }
        if let value = command.value("--media") { media = value }
        if let value = command.value("--device") { audioDevice = value }
        if let value = command.value("--mixer") {
            guard let choice = ConfigurationValue.mixer.parse(value) else { return "bad --mixer '" + value + "' (" + ConfigurationValue<MixerChoice>.mixer.expected + ")" }
            mixer = choice
        }
        if let value = command.value("--control") { controlSocket = value }
        if let value = command.value("--board") { board = value }
        if let value = command.value("--state-dir") { stateDirectory = value }
        if let value = command.value("--led-trace") { ledTrace = value }
        if let value = command.value("--udev-source") {
            guard ["auto", "udev", "kernel"].contains(value) else { return "bad --udev-source '" + value + "' (auto, udev or kernel)" }
            udevSource = value
        }
        if let value = command.value("--volume") {
            guard let level = Int(value), (0...100).contains(level) else { return "bad --volume '" + value + "' (0-100)" }
            let volume = player.volume
            player.volume = VolumeSettings(initial: level, minimum: volume.minimum, maximum: volume.maximum, step: volume.step)
        }
        if let value = command.value("--policy") {
            guard let chosen = SelectionPolicy(configName: value) else { return "unknown policy '" + value + "'" }
            policy = chosen
        }
        if let value = command.value("--buffer-time") {
            guard let number = UInt32(value) else { return "bad --buffer-time '" + value + "'" }
            bufferTime = number
        }
        if let value = command.value("--period-time") {
            guard let number = UInt32(value) else { return "bad --period-time '" + value + "'" }
            periodTime = number
        }
        return nil
    }
}
