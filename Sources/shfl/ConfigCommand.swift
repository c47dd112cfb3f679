import ShflConfig
import ShflCore
import ShflSystem

/// `shfl config [--config PATH] [--sample]`: reads the configuration file as `shfl run` does
/// and prints every problem (standard error, "FILE:LINE: [section] key: what is wrong; what
/// is used instead"), then the effective configuration (standard output, a valid file itself;
/// keys the file set are marked "; line N"). A way to check a file before rebooting.
/// `--sample` prints the commented sample file instead (board/shfl.ini is that output).
/// Exit status 0, 1 when there is a warning (notices such as a missing file do not count),
/// 2 for a usage error.
enum ConfigCommand {
    static let usage = "usage: shfl config [--config PATH] [--sample]"

    static func run(_ arguments: [String]) -> Int32 {
        let options: CommandOptions
        do {
            options = try CommandOptions.parse(arguments[...], valued: ["--config"], flags: ["--sample", "--help", "-h"])
        } catch {
            return usageError(error.message)
        }
        if options.isSet("--help") || options.isSet("-h") {
            StandardStreams.writeLine(usage)
            return 0
        }
        let path = options.value("--config") ?? Configuration.defaultFile
        if options.isSet("--sample") {
            var text = Configuration.sampleText
            if text.hasSuffix("\n") { text.removeLast() }
            StandardStreams.writeLine(text)
            return 0
        }
        let loaded = InihConfigurationFile.load(path: path)
        for problem in loaded.problems {
            StandardStreams.writeLine(problem.description, toError: true)
        }
        var text = "# shfl config: the configuration read from " + path + "\n"
        text += loaded.configuration.text(lineOf: { loaded.line(of: $0) })
        if text.hasSuffix("\n") { text.removeLast() }
        StandardStreams.writeLine(text)
        return loaded.warnings.isEmpty ? 0 : 1
    }

    private static func usageError(_ message: String) -> Int32 {
        StandardStreams.writeLine("shfl config: " + message, toError: true)
        StandardStreams.writeLine(usage, toError: true)
        return 2
    }
}
