/// The [system] section: where the daemon keeps its files.
public struct SystemConfiguration: Hashable, Sendable {
    /// Per-stick state files (shuffle, position, history; SPEC §8). Must be writable.
    public var stateDirectory: String
    /// Runtime files: the control socket, stick mount points (RUNTIME/media/UUID).
    public var runtimeDirectory: String
    /// The control socket `shfl status`, `shfl press` and friends talk to.
    public var controlSocket: String

    public init(
        stateDirectory: String = "/var/lib/shfl",
        runtimeDirectory: String = "/run/shfl",
        controlSocket: String = "/run/shfl/control"
    ) {
        self.stateDirectory = stateDirectory
        self.runtimeDirectory = runtimeDirectory
        self.controlSocket = controlSocket
    }
}
