import CSystem

/// Replaces the process with a fresh run of the same program and arguments
/// (`execv("/proc/self/exe", argv)`): how the daemon reloads its configuration, through the
/// same start-up path as any start (the stick resumes from its saved state). Descriptors are
/// opened with O_CLOEXEC, so none leaks into the new image.
public enum SelfExecution {
    /// Does not return on success; returns the error otherwise.
    public static func restart() -> Errno {
        guard let arguments = shfl_argv() else { return Errno(EINVAL) }
        _ = execv("/proc/self/exe", arguments)
        return Errno.current
    }
}
