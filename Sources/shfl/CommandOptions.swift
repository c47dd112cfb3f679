import ShflCore

/// A wrong command line, with the message to print before the usage.
struct UsageError: Error {
    var message: String
}

/// The options after a command's name: `--name VALUE` (or `--name=VALUE`) for the valued ones,
/// `--name` alone for flags, and, where the command takes them, positional arguments (anything
/// not starting with "--"). A valued option given twice keeps the later value.
struct CommandOptions {
    private var values: [String: String] = [:]
    private var flags: [String] = []
    /// The positional arguments, in order (empty unless `positionals` was allowed).
    private(set) var positionals: [String] = []

    static func parse(
        _ arguments: ArraySlice<String>, valued: [String], flags allowed: [String], positionals: Bool = false
    ) throws(UsageError) -> CommandOptions {
        var options = CommandOptions()
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="), valued.contains(String(argument[..<equals])) {
                options.values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
            } else if valued.contains(argument) {
                guard let value = rest.popFirst() else { throw UsageError(message: argument + " needs a value") }
                options.values[argument] = value
            } else if allowed.contains(argument) {
                options.flags.append(argument)
            } else if positionals && !argument.hasPrefix("--") {
                options.positionals.append(argument)
            } else {
                throw UsageError(message: "unknown option '" + argument + "'")
            }
        }
        return options
    }

    func value(_ name: String) -> String? {
        values[name]
    }

    func isSet(_ flag: String) -> Bool {
        flags.contains(flag)
    }

    /// `--buttons play,skip,vol+`: the buttons named, in order; nil when not given.
    func buttons() throws(UsageError) -> [Button]? {
        guard let list = values["--buttons"] else { return nil }
        var buttons: [Button] = []
        for name in list.split(separator: ",") {
            guard let button = Button(name: String(name)) else {
                throw UsageError(message: "unknown button '" + String(name) + "' (play, skip, vol+, vol-)")
            }
            buttons.append(button)
        }
        guard !buttons.isEmpty else { throw UsageError(message: "--buttons names no button") }
        return buttons
    }

    /// `--NAME SECONDS` as a duration of whole seconds (1 to 3600); `fallback` when not given.
    func seconds(_ name: String, default fallback: Duration) throws(UsageError) -> Duration {
        guard let text = values[name] else { return fallback }
        guard let seconds = Int(text), seconds >= 1, seconds <= 3_600 else {
            throw UsageError(message: name + " takes whole seconds from 1 to 3600, not '" + text + "'")
        }
        return .seconds(seconds)
    }
}
