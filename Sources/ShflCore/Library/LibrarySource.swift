/// What chose a stick's tracks: the configured `SelectionPolicy`, or the stick's playlist.
public enum LibrarySource: Hashable, Sendable, CustomStringConvertible {
    /// The policy chose (the stick has no playlist, or the caller fell back to the policy).
    case policy(SelectionPolicy)
    /// The playlist file at the stick's root chose, e.g. `.playlist(name: "shfl.m3u")`.
    case playlist(name: String)

    /// "policy alphabetical" or "playlist shfl.m3u".
    public var description: String {
        switch self {
        case .policy(let policy): "policy " + policy.configName
        case .playlist(let name): "playlist " + name
        }
    }
}
