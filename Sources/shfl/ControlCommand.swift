import ShflCore
import ShflService
import ShflSystem

/// `shfl status|play|pause|toggle|skip|reshuffle|capacity|volume +|-|N|press BUTTON|release
/// BUTTON [--socket PATH]`: sends one request to the running daemon over its control socket
/// and prints the reply's fields. Exit status 0 when the daemon says `ok`, 1 when it says
/// `error: ...` (the reason on stderr), 2 when it cannot be reached (not running, no
/// permission, no reply) or for a usage error.
enum ControlCommand {
    static let usage = "usage: shfl status|play|pause|toggle|skip|reshuffle|capacity|volume +|-|0-100|press BUTTON|release BUTTON [--socket PATH]"

    static func run(_ command: String, _ arguments: [String]) -> Int32 {
        let options: CommandOptions
        do {
            options = try CommandOptions.parse(arguments[...], valued: ["--socket"], flags: [], positionals: true)
        } catch {
            return usageError(command, error.message)
        }
        let socketPath = options.value("--socket") ?? UnixControlServer.defaultPath
        let words = [command] + options.positionals

        let request: ControlRequest
        do {
            request = try ControlRequest(parsing: words.joined(separator: " "))
        } catch {
            return usageError(command, error.description)
        }

        switch UnixControlClient.send(request, to: socketPath) {
        case .success(let reply):
            for field in reply.fields { StandardStreams.writeLine(field.description) }
            switch reply.outcome {
            case .ok:
                return 0
            case .error(let reason):
                StandardStreams.writeLine("shfl " + command + ": " + reason, toError: true)
                return 1
            }
        case .failure(let error):
            StandardStreams.writeLine("shfl " + command + ": " + error.description, toError: true)
            return 2
        }
    }

    private static func usageError(_ command: String, _ message: String) -> Int32 {
        StandardStreams.writeLine("shfl " + command + ": " + message, toError: true)
        StandardStreams.writeLine(usage, toError: true)
        return 2
    }
}
