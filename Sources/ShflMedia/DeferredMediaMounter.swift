import ShflCore

/// A `MediaMounter` that leaves the `mount(2)` of a stick to the loading thread (SPEC §14):
/// `mount(_:)` only names the mount point (nothing is touched, so the event loop never waits
/// on a stick that stalls or a probe that retries), and `finishMount(_:)`, called by the
/// thread that then scans the stick, mounts it with `SystemMediaMounter`. A failure to mount
/// comes out of the loading thread, as a failed scan would, naming the device and the reason.
public final class DeferredMediaMounter: MediaMounter {
    public let inner: SystemMediaMounter

    public init(_ inner: SystemMediaMounter) {
        self.inner = inner
    }

    /// The stick's future mount point; nothing is mounted yet.
    public func mount(_ stick: StickInfo) throws(DeviceError) -> MountedStick {
        MountedStick(stick: stick, root: inner.mountPoint(for: stick))
    }

    /// `SystemMediaMounter.mount(_:)`, off the event loop.
    public func finishMount(_ mounted: MountedStick) throws(DeviceError) {
        _ = try inner.mount(mounted.stick)
    }

    /// Lazy (`MNT_DETACH`): returns at once, even for a stick that is gone.
    public func unmount(_ mounted: MountedStick) throws(DeviceError) {
        try inner.unmount(mounted)
    }
}
