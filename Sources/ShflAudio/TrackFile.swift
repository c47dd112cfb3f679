// `poll`, `pollfd` and errno constants come from headers Clang attributes to CALSA in this module
// (alsa-lib's header includes them first); Embedded Swift wants the owning module imported.
import CALSA
import CSystem
import ShflCore
import ShflSystem

/// The file a track is read from, as `ReadAheadStream`'s reader thread sees it: every call may
/// block for as long as the storage stalls (a stick retrying a sector, re-enumerating), which is
/// why only the reader thread makes them, never the audio thread.
///
/// Contract: `open(_:)` closes any open file, opens `path` (a regular file only) and returns its
/// size in bytes; `read(into:)` reads at the current offset (0: end of file); `seek(to:)` moves
/// the offset; `close()` never fails. Errors are errnos. Used by one thread at a time.
/// Adapters: `SystemTrackFile` (open/read/lseek), test doubles that stall.
public protocol TrackFile: AnyObject {
    func open(_ path: FilePath) throws(Errno) -> Int
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    func seek(to offset: Int) throws(Errno)
    func close()
}

/// The `TrackFile` port on the file system. The file is opened non-blocking, then checked with
/// `fstat` to be a regular file (a FIFO or a device named ".mp3" cannot hang the reader), then
/// read blocking.
public final class SystemTrackFile: TrackFile {
    private var descriptor: FileDescriptor?

    public init() {}

    deinit { close() }

    /// `open(2)` (O_RDONLY | O_NONBLOCK), `fstat(2)`, then blocking reads; the size in bytes.
    /// ENOENT for a missing file, EINVAL for one that is not a regular file.
    public func open(_ path: FilePath) throws(Errno) -> Int {
        close()
        let opened = try FileDescriptor.open(path.bytes, O_RDONLY | O_NONBLOCK)
        var status = stat()
        guard fstat(opened.rawValue, &status) == 0 else {
            let error = Errno.current
            opened.close()
            throw error
        }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            opened.close()
            throw Errno(EINVAL)
        }
        do {
            try opened.setNonBlocking(false)
        } catch {
            opened.close()
            throw error
        }
        descriptor = opened
        return Int(status.st_size)
    }

    /// `read(2)`, retried on EINTR.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let descriptor else { return 0 }
        return try descriptor.read(into: buffer)
    }

    /// `lseek(2)` with SEEK_SET.
    public func seek(to offset: Int) throws(Errno) {
        guard let descriptor else { return }
        if lseek(descriptor.rawValue, off_t(offset), SEEK_SET) < 0 { throw Errno.current }
    }

    public func close() {
        descriptor?.close()
        descriptor = nil
    }
}
