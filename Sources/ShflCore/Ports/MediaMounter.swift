/// A stick whose files are reachable: what `MediaMounter.mount(_:)` gives back.
public struct MountedStick: Hashable, Sendable, CustomStringConvertible {
    public var stick: StickInfo
    /// The directory the stick's files are under (its mount point).
    public var root: FilePath

    public init(stick: StickInfo, root: FilePath) {
        self.stick = stick
        self.root = root
    }

    /// "SHFL (1A2B-3C4D) on /dev/sda1 [vfat] at /run/shfl/media/1A2B-3C4D".
    public var description: String {
        stick.description + " at " + root.description
    }
}

/// Port: makes a stick's files reachable, and lets go of them.
///
/// Contract:
/// - `mount(_:)` makes the files of `stick` readable under the returned root: read-only, with
///   set-user-ID bits, device nodes and executables not honoured. It tries once: a failure
///   (unknown or damaged file system, I/O error) is thrown, naming the device and the reason,
///   and nothing retries behind the caller's back.
/// - `unmount(_:)` lets go of a mounted stick at once, also when the stick is already gone
///   or files on it are still open (a lazy unmount: they stay readable until closed).
///   Unmounting what is not mounted is harmless.
/// - Errors name the device, the directory and the reason.
/// - `finishMount(_:)`: a mounter may return from `mount(_:)` before the files are reachable
///   (`DeferredMediaMounter`, so the event loop never waits on the stick): then `finishMount`,
///   called once off the loop before the first read, mounts, and throws what `mount` would have.
/// Called from the event-loop thread only, but `finishMount` (the loading thread).
/// Adapters: `SystemMediaMounter` (`mount(2)` under /run/shfl/media), `DirectoryMediaMounter`
/// (the stick's `source` is a directory already; tests and the demo).
public protocol MediaMounter: AnyObject {
    func mount(_ stick: StickInfo) throws(DeviceError) -> MountedStick
    func unmount(_ mounted: MountedStick) throws(DeviceError)
    func finishMount(_ mounted: MountedStick) throws(DeviceError)
}

extension MediaMounter {
    /// Mounters that mount in `mount(_:)` have nothing left to do.
    public func finishMount(_ mounted: MountedStick) throws(DeviceError) {}
}
