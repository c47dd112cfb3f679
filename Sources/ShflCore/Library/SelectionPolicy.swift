/// How Shfl chooses which tracks to load when a stick holds more MP3 files than
/// `Library.capacity` and has no playlist (SPEC §2). Set by the config key naming it; the
/// chosen tracks are the same whatever order the scanner found the files in.
public enum SelectionPolicy: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The first tracks in path order (`TrackPath`'s `<`). The default.
    case alphabetical
    /// The newest files by modification time.
    case recentlyAdded
    /// The tracks with the highest play count in the stick's history.
    case mostPlayed
    /// The tracks played most recently (highest `PlayRecord.lastPlayed`); never-played
    /// tracks come last.
    case recentlyPlayed
    /// A random choice drawn with `SeededGenerator` from the seed given to the selector.
    case random

    /// The default policy: `alphabetical`.
    public static let `default` = SelectionPolicy.alphabetical

    /// Parses a config value: "alphabetical", "recently-added", "most-played",
    /// "recently-played" or "random", in any ASCII letter case. Surrounding spaces are the
    /// config parser's business and are not accepted here.
    public init?(configName: String) {
        var lowered: [UInt8] = []
        for byte in configName.utf8 {
            lowered.append(TrackPath.foldCase(byte))
        }
        for policy in SelectionPolicy.allCases where Array(policy.configName.utf8) == lowered {
            self = policy
            return
        }
        return nil
    }

    /// The spelling used in the config file, e.g. "recently-added".
    public var configName: String {
        switch self {
        case .alphabetical: "alphabetical"
        case .recentlyAdded: "recently-added"
        case .mostPlayed: "most-played"
        case .recentlyPlayed: "recently-played"
        case .random: "random"
        }
    }

    public var description: String { configName }
}
