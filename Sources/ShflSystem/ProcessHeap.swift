import CSystem

/// The C library's heap, as the daemon's memory budget sees it (issue "The daemon": peak RSS
/// while playing). glibc keeps freed memory in the process; after a big transient allocation
/// (the scan of a stick's thousands of paths) that memory would stay resident for as long as
/// the stick plays.
public enum ProcessHeap {
    /// Gives the free pages of the heap back to the kernel (`malloc_trim(0)`: `madvise`s the
    /// free pages inside the heap, not only its top). Costs about a millisecond on a big heap;
    /// call it after a transient peak, never on the audio path.
    public static func releaseFreeMemory() {
        _ = malloc_trim(0)
    }
}
