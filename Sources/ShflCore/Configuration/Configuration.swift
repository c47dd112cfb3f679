/// Everything the configuration file sets (SPEC §8), each setting with its documented default.
///
/// Pure data: `Configuration()` is the defaults. The file is read by an adapter
/// (`InihConfigurationFile` in ShflConfig), which feeds each `key = value` line to a
/// `ConfigurationBuilder`; every key, its section, default, doc and parser is in ONE table,
/// `Configuration.keys`, which also produces the sample file (board/shfl.ini) and what
/// `shfl config` prints. The composition root maps the plain values here onto the adapters'
/// types (ScanLimits, MediaRules, ALSAAudioSink, BoardFiles, ...), which the core cannot see.
public struct Configuration: Hashable, Sendable {
    /// Where the daemon reads its configuration unless told otherwise (`--config PATH`): the
    /// boot partition, which a PC can edit.
    public static let defaultFile = "/boot/firmware/shfl.ini"

    /// The defaults, as documented in the key table and board/shfl.ini.
    public static let defaults = Configuration()

    /// [board]: which pin map, and the LED's polarity.
    public var board: BoardConfiguration
    /// [audio]: the ALSA output and the audio thread.
    public var audio: AudioConfiguration
    /// [player] autoplay and save-interval, and [volume] (limits, step, start level).
    public var player: PlayerSettings
    /// [player] selection: which 120 tracks a bigger stick without a playlist loads.
    public var selectionPolicy: SelectionPolicy
    /// [buttons]: debounce settle time, hold thresholds, volume repeat.
    public var gestures: GestureSettings
    /// [media]: where sticks come from, which file systems count, how much scanning.
    public var media: MediaConfiguration
    /// [system]: state, runtime directory and control socket.
    public var system: SystemConfiguration

    public init(
        board: BoardConfiguration = BoardConfiguration(),
        audio: AudioConfiguration = AudioConfiguration(),
        player: PlayerSettings = PlayerSettings(),
        selectionPolicy: SelectionPolicy = .default,
        gestures: GestureSettings = .standard,
        media: MediaConfiguration = MediaConfiguration(),
        system: SystemConfiguration = SystemConfiguration()
    ) {
        self.board = board
        self.audio = audio
        self.player = player
        self.selectionPolicy = selectionPolicy
        self.gestures = gestures
        self.media = media
        self.system = system
    }
}
