import CSystem

/// Attaching and detaching file systems: `mount(2)` and `umount2(2)`, the one place Shfl
/// calls them. Both need `CAP_SYS_ADMIN`.
public enum Mounts {
    /// The `MS_*` flags of `mount(2)` that Shfl uses.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt

        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// `MS_RDONLY`.
        public static let readOnly = Flags(rawValue: UInt(MS_RDONLY))
        /// `MS_NOSUID`: set-user-ID bits are ignored.
        public static let noSetUserID = Flags(rawValue: UInt(MS_NOSUID))
        /// `MS_NODEV`: device nodes cannot be opened.
        public static let noDevices = Flags(rawValue: UInt(MS_NODEV))
        /// `MS_NOEXEC`: nothing executes from it.
        public static let noExecute = Flags(rawValue: UInt(MS_NOEXEC))
        /// `MS_NOATIME`: reading never writes access times (read-only makes that moot, but a
        /// remount read-write would not).
        public static let noAccessTime = Flags(rawValue: UInt(MS_NOATIME))
    }

    /// `mount(2)`: attaches the file system of type `type` on `source` (a block device) at
    /// `target` (an existing directory), with `options` as the file system's data string
    /// ("utf8,fmask=0133", "" for none).
    public static func mount(
        source: [UInt8], target: [UInt8], type: String, flags: Flags, options: String
    ) throws(Errno) {
        let result = withCString(source) { cSource in
            withCString(target) { cTarget in
                withCString(Array(type.utf8)) { cType in
                    withCString(Array(options.utf8)) { cOptions in
                        retryingOnInterrupt { CSystem.mount(cSource, cTarget, cType, flags.rawValue, cOptions) }
                    }
                }
            }
        }
        _ = try result.get()
    }

    /// `umount2(2)` with `UMOUNT_NOFOLLOW`, and `MNT_DETACH` when `lazily`: a lazy unmount
    /// detaches at once and frees the file system when the last open file on it closes (the
    /// way to let go of a stick that was pulled out).
    public static func unmount(_ target: [UInt8], lazily: Bool) throws(Errno) {
        let flags = Int32(UMOUNT_NOFOLLOW) | (lazily ? Int32(MNT_DETACH) : 0)
        let result = withCString(target) { cTarget in
            retryingOnInterrupt { umount2(cTarget, flags) }
        }
        _ = try result.get()
    }
}
