/// One request on the control socket (`/run/shfl/control`, SPEC §9): what `shfl status`,
/// `shfl skip`, `shfl volume +` ... send to the running daemon.
///
/// The protocol, request side:
/// - A request is one line of UTF-8 text ended by "\n", at most `maximumLineLength` (512)
///   bytes before the "\n". Words are separated by spaces or tabs; whitespace around them
///   (a "\r" before the "\n" included) is ignored. Command words and button names are
///   case-insensitive.
/// - The requests:
///
///       status                 the player's state (see `StatusReport`)
///       play | pause | toggle  start, hold, or flip playback (`play` while playing does nothing)
///       skip | reshuffle       the next track; a new shuffle order
///       volume + | - | N       one step up or down, or the level N (0...100)
///       press BUTTON           the button goes down, as if pressed on the board
///       release BUTTON         ... and up (BUTTON: PLAY, SKIP, VOL+, VOL-)
///       capacity               "47/120": how full the stick's library is
///
/// - Every request gets exactly one reply, in the order the requests came (`ControlReply`).
///   A client may send several requests before reading the replies.
public enum ControlRequest: Hashable, Sendable, CustomStringConvertible {
    case status
    case play
    case pause
    case toggle
    case skip
    case reshuffle
    case volume(VolumeChange)
    case press(Button)
    case release(Button)
    case capacity

    /// The longest request line, in bytes before its "\n". A longer line is an error
    /// (`ControlError.lineTooLong`) and the server closes the connection.
    public static let maximumLineLength = 512

    /// The command words, in the order the usage lists them.
    public static let commandWords = [
        "status", "play", "pause", "toggle", "skip", "reshuffle", "volume", "press", "release", "capacity",
    ]

    /// The request as its canonical line, without the "\n": "volume +", "press PLAY".
    /// Parsing it gives the same request back.
    public var line: String {
        switch self {
        case .status: "status"
        case .play: "play"
        case .pause: "pause"
        case .toggle: "toggle"
        case .skip: "skip"
        case .reshuffle: "reshuffle"
        case .volume(.up): "volume +"
        case .volume(.down): "volume -"
        case .volume(.set(let level)): "volume " + String(level)
        case .press(let button): "press " + button.description
        case .release(let button): "release " + button.description
        case .capacity: "capacity"
        }
    }

    public var description: String { line }
}
