import ShflCore
import ShflSystem

/// One scan of a mounted stick on a thread of its own, so the event loop keeps blinking the
/// LED "loading", answering buttons, the control socket and the watchdog while a big or slow
/// stick is walked (up to `ScanLimits.timeLimit`). `descriptor` (an eventfd) becomes readable
/// when the scan has ended; `result()` then joins the thread and returns what it found.
///
/// The scan thread touches only the stick's tree and its own result; the event loop reads the
/// result after `pthread_join`, so nothing is shared while both run. Event-loop thread only.
public final class StickScanThread {
    /// Written by the scan thread before it notifies; read by the event loop after the join.
    private final class Box: @unchecked Sendable {
        var result: Result<StickScan, DeviceError> = .failure(DeviceError("the scan did not run"))
    }

    private let box = Box()
    private let finished: EventNotifier
    private var thread: SystemThread?
    /// The folder being scanned.
    public let root: FilePath

    /// Starts scanning `root` with `scanner`.
    public convenience init(scanner: StickScanner, root: FilePath) throws(Errno) {
        try self.init(root: root, load: { Result { () throws(DeviceError) in try scanner.scan(root) } })
    }

    /// Runs `load` (which scans `root`, and may mount the stick first and read its saved state
    /// after) on the thread instead of the bare scan.
    public init(root: FilePath, load: @escaping () -> Result<StickScan, DeviceError>) throws(Errno) {
        self.root = root
        finished = try EventNotifier()
        let box = box
        let finished = finished
        do {
            thread = try SystemThread {
                box.result = load()
                finished.notify()
            }
        } catch {
            finished.close()
            throw error
        }
    }

    /// Readable in `poll()` once the scan has ended.
    public var descriptor: FileDescriptor { finished.descriptor }

    deinit {
        thread?.join()
        finished.close()
    }

    /// Waits for the scan to end (at once after `descriptor` was readable) and hands its result
    /// over (a second call gets a failure): the list of every file goes with it, so it is freed
    /// as soon as the caller is done with it.
    public func result() -> Result<StickScan, DeviceError> {
        thread?.join()
        thread = nil
        defer { box.result = .failure(DeviceError("the scan's result was taken")) }
        return box.result
    }
}
