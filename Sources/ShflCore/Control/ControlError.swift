/// Why a request line was refused. The description is the reason sent back to the client
/// (`error: <description>`); words quoted from the line are made printable and shortened.
public enum ControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line had no words.
    case emptyRequest
    /// The first word is not a command.
    case unknownCommand(String)
    /// The command needs an argument that is not there; `expected` says what it takes.
    case missingArgument(command: String, expected: String)
    /// A word after the command (and its argument, if it takes one).
    case unexpectedArgument(command: String, argument: String)
    /// `volume` with something other than +, - or 0...100.
    case badVolume(String)
    /// `press` or `release` with something other than PLAY, SKIP, VOL+, VOL-.
    case unknownButton(String)
    /// More than `limit` bytes without a "\n"; the server closes the connection after the reply.
    case lineTooLong(limit: Int)

    public var description: String {
        switch self {
        case .emptyRequest:
            "empty request (expected one of: " + ControlError.commandList + ")"
        case .unknownCommand(let word):
            "unknown command '" + word + "' (expected one of: " + ControlError.commandList + ")"
        case .missingArgument(let command, let expected):
            command + " needs an argument: " + expected
        case .unexpectedArgument(let command, let argument):
            "unexpected argument '" + argument + "' after " + command
        case .badVolume(let word):
            "bad volume '" + word + "' (expected +, - or a number from 0 to 100)"
        case .unknownButton(let word):
            "unknown button '" + word + "' (expected PLAY, SKIP, VOL+ or VOL-)"
        case .lineTooLong(let limit):
            "request longer than " + String(limit) + " bytes"
        }
    }

    static var commandList: String {
        var list = ""
        for word in ControlRequest.commandWords {
            if !list.isEmpty { list += ", " }
            list += word
        }
        return list
    }
}
