/// What reading a configuration file gave: the configuration to run with (every key with a
/// problem at its default, or the value an earlier line gave it) and every problem, in line
/// order. What the daemon logs at start-up and on SIGHUP, and what `shfl config` prints.
public struct LoadedConfiguration: Sendable {
    /// The file as named in problems.
    public var file: String
    public var configuration: Configuration
    /// Every problem and notice, in line order (those about the whole file first).
    public var problems: [ConfigurationProblem]
    private var origins: [String: Int]

    public init(file: String, configuration: Configuration, problems: [ConfigurationProblem], origins: [String: Int] = [:]) {
        self.file = file
        self.configuration = configuration
        self.problems = problems
        self.origins = origins
    }

    /// The line that set `key`, nil when it has its default.
    public func line(of key: ConfigurationKey) -> Int? {
        origins[key.description]
    }

    /// The problems that are warnings (not notices such as a missing file or a duplicate key).
    public var warnings: [ConfigurationProblem] {
        var warnings: [ConfigurationProblem] = []
        for problem in problems where problem.level <= .warning { warnings.append(problem) }
        return warnings
    }

    /// One log line per problem, for stderr (journald reads the priority).
    public var logMessages: [LogMessage] {
        var messages: [LogMessage] = []
        for problem in problems { messages.append(problem.logMessage) }
        return messages
    }
}
