/// Builds a `LoadedConfiguration` from the lines of one file, in file order: an INI adapter
/// calls `add` for every `key = value` line and `report` for what only it can see (syntax
/// errors, an unreadable file), then `finish`. Pure; the tests drive it directly.
///
/// On top of `Configuration.apply` it notes a key given twice (a notice: the later line
/// counts), reports an unknown section once rather than at each of its keys, remembers which
/// line set each key (`LoadedConfiguration.line(of:)`), and at the end checks the keys that
/// must fit together (`ConfigurationBuilder+Checks.swift`).
public struct ConfigurationBuilder: Sendable {
    /// How problems name the file: the path as given.
    public let file: String
    private var configuration = Configuration()
    private var problems: [ConfigurationProblem] = []
    /// The line that set each key, by `ConfigurationKey.description`.
    private var origins: [String: Int] = [:]
    private var unknownSections: [String] = []

    public init(file: String) {
        self.file = file
    }

    /// One `key = value` line, as the INI parser found it (`section` is "" before any heading).
    /// `sectionLine`, the line of the section's heading when the parser knows it, is where an
    /// unknown section is reported (else at its first key).
    public mutating func add(section: String, key: String, value: String, line: Int, sectionLine: Int? = nil) {
        let known = Configuration.key(section: section, name: key)
        guard var problem = configuration.apply(section: section, key: key, value: value, line: line, file: file) else {
            if let known {
                if let first = origins[known.description] {
                    report(ConfigurationProblem(
                        .duplicateKey, .notice, file: file, line: line, key: known.description,
                        known.description + " is set again (first on line " + String(first) + "); this line counts"))
                }
                origins[known.description] = line
            }
            return
        }
        if problem.kind == .unknownSection, let name = problem.key {
            if unknownSections.contains(name) { return }
            unknownSections.append(name)
            problem.line = sectionLine ?? line
        }
        report(problem)
    }

    /// A problem found by the adapter: a syntax error, a line too long, the file itself.
    public mutating func report(_ problem: ConfigurationProblem) {
        problems.append(problem)
    }

    /// The configuration with the cross-key checks applied, and every problem in line order
    /// (problems about the whole file first).
    public func finish() -> LoadedConfiguration {
        var configuration = configuration
        var problems = problems
        problems.append(contentsOf: ConfigurationBuilder.check(&configuration, file: file, origins: origins))
        var ordered: [(offset: Int, problem: ConfigurationProblem)] = []
        for (offset, problem) in problems.enumerated() { ordered.append((offset, problem)) }
        ordered.sort { ($0.problem.line ?? 0, $0.offset) < ($1.problem.line ?? 0, $1.offset) }
        var sorted: [ConfigurationProblem] = []
        for entry in ordered { sorted.append(entry.problem) }
        return LoadedConfiguration(file: file, configuration: configuration, problems: sorted, origins: origins)
    }
}
