extension ControlRequest {
    /// Parses one request line (the bytes before its "\n"; a "\n" or "\r" at the end is
    /// ignored like any whitespace). Throws a `ControlError` naming what was wrong.
    public init(parsing line: [UInt8]) throws(ControlError) {
        guard line.count <= ControlRequest.maximumLineLength else {
            throw .lineTooLong(limit: ControlRequest.maximumLineLength)
        }
        let words = ControlRequest.words(of: line)
        guard let first = words.first else { throw .emptyRequest }
        let command = ControlRequest.asciiLowercased(first)
        let arguments = words.dropFirst()

        switch command {
        case "status": self = .status
        case "play": self = .play
        case "pause": self = .pause
        case "toggle": self = .toggle
        case "skip": self = .skip
        case "reshuffle": self = .reshuffle
        case "capacity": self = .capacity
        case "volume":
            guard let argument = arguments.first else {
                throw .missingArgument(command: "volume", expected: "+, - or a number from 0 to 100")
            }
            self = .volume(try ControlRequest.volumeChange(argument))
        case "press", "release":
            guard let argument = arguments.first else {
                throw .missingArgument(command: command, expected: "a button: PLAY, SKIP, VOL+ or VOL-")
            }
            guard let button = Button(name: String(decoding: argument, as: UTF8.self)) else {
                throw .unknownButton(ControlText.quotable(argument))
            }
            self = command == "press" ? .press(button) : .release(button)
        default:
            throw .unknownCommand(ControlText.quotable(first))
        }

        let expectedArguments: Int
        switch self {
        case .volume, .press, .release: expectedArguments = 1
        case .status, .play, .pause, .toggle, .skip, .reshuffle, .capacity: expectedArguments = 0
        }
        if arguments.count > expectedArguments {
            throw .unexpectedArgument(command: command, argument: ControlText.quotable(arguments[arguments.startIndex + expectedArguments]))
        }
    }

    /// Parses a request line given as text.
    public init(parsing line: String) throws(ControlError) {
        try self.init(parsing: Array(line.utf8))
    }

    /// The words of a line: runs of bytes other than space, tab, "\r", "\n", "\u{0B}", "\u{0C}".
    static func words(of line: [UInt8]) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in line {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                if !current.isEmpty {
                    words.append(current)
                    current = []
                }
            default:
                current.append(byte)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The word with ASCII letters lower-cased, as text (other bytes decoded as UTF-8).
    static func asciiLowercased(_ word: [UInt8]) -> String {
        String(decoding: word.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// "+", "-", or a decimal level from 0 to 100 (at most three digits, no sign).
    static func volumeChange(_ word: [UInt8]) throws(ControlError) -> VolumeChange {
        if word == [UInt8(ascii: "+")] { return .up }
        if word == [UInt8(ascii: "-")] { return .down }
        guard !word.isEmpty, word.count <= 3, word.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .badVolume(ControlText.quotable(word))
        }
        let level = word.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard level <= 100 else { throw .badVolume(ControlText.quotable(word)) }
        return .set(level)
    }
}
