import CSystem
import ShflCore
import ShflSystem

/// A `StateStore` that saves on a writer thread of its own, so the event loop never waits on
/// the SD card (SPEC §14): a card that takes a second to fsync no longer freezes the LED or
/// delays a button.
///
/// - `save(_:)` validates the state at once (`.invalid` is still thrown to the caller), then
///   hands it to the writer and returns. States waiting for the writer coalesce: per stick, the
///   newest wins, so a stall of the card costs one write when it ends, not a backlog. The
///   writer saves through `inner`, whose sequence (temporary file, fsync, rename, directory
///   fsync) is unchanged: a power cut still leaves the old or the new state.
/// - `load(_:)` returns the newest state handed to `save` and not yet written (or being
///   written), else asks `inner` on the calling thread.
/// - A failed write is reported through `failures` (polled on `descriptor`), naming the stick;
///   it is not retried: the next state saved replaces it.
/// - `flush()` blocks until every state handed over is written (at shutdown).
/// The durability promise of `StateStore.save` holds once `flush()` returns. `save`, `load`,
/// `flush` and `takeFailures` may be called from any one thread besides the writer (the event
/// loop, a loading thread); the lock is never held across I/O.
public final class BackgroundStateStore: StateStore, @unchecked Sendable {
    private let inner: any StateStore
    private let lock = SystemMutex()
    /// Guarded by `lock`: states to write, in the order their sticks were first saved.
    private var pending: [StickState] = []
    /// Guarded by `lock`: the state the writer is saving now.
    private var writing: StickState?
    /// Guarded by `lock`: states `prefetch` read, for the next `load` of their stick.
    private var prefetched: [StickID: Result<StickState?, StoreError>] = [:]
    /// Guarded by `lock`: failure messages not yet taken.
    private var failed: [String] = []
    private var quitting = false
    /// Wakes the writer.
    private let work: EventNotifier
    /// Wakes whoever waits for the writer: a write ended (`flush`, and the loop's failures).
    private let done: EventNotifier
    private var thread: SystemThread?

    /// Readable when failures are waiting (`takeFailures()`), or a write ended.
    public var descriptor: FileDescriptor { done.descriptor }

    public init(_ inner: any StateStore) throws(Errno) {
        self.inner = inner
        work = try EventNotifier()
        do {
            done = try EventNotifier()
        } catch {
            work.close()
            throw error
        }
        do {
            thread = try SystemThread { [self] in writerLoop() }
        } catch {
            work.close()
            done.close()
            throw error
        }
    }

    deinit {
        stop()
        work.close()
        done.close()
    }

    /// Writes what is pending, then ends the writer thread.
    public func stop() {
        guard let thread else { return }
        lock.withLock { quitting = true }
        work.notify()
        thread.join()
        self.thread = nil
    }

    public func save(_ state: StickState) throws(StoreError) {
        do {
            try StickStateCodec.validate(state)
        } catch {
            throw .invalid(state.stick, reason: error.description)
        }
        lock.withLock {
            if let index = pending.firstIndex(where: { $0.stick == state.stick }) {
                pending[index] = state
            } else {
                pending.append(state)
            }
        }
        work.notify()
    }

    public func load(_ stick: StickID) throws(StoreError) -> StickState? {
        let known = lock.withLock { () -> Result<StickState?, StoreError>? in
            let read = prefetched.removeValue(forKey: stick)
            if let waiting = pending.first(where: { $0.stick == stick }) { return .success(waiting) }
            if let current = writing, current.stick == stick { return .success(current) }
            return read
        }
        if let known { return try known.get() }
        return try inner.load(stick)
    }

    /// Reads the stick's saved state now, on the calling thread (the loading thread), so the
    /// event loop's `load` of it that follows is answered from memory.
    public func prefetch(_ stick: StickID) {
        let read = Result { () throws(StoreError) -> StickState? in try inner.load(stick) }
        lock.withLock { prefetched[stick] = read }
    }

    /// Blocks until every state handed to `save` so far is written.
    public func flush() {
        var entry = pollfd(fd: done.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        while lock.withLock({ !pending.isEmpty || writing != nil }) {
            _ = poll(&entry, 1, 100)
            _ = done.drain()
        }
    }

    /// The failures since the last call ("saving stick <UUID>: <reason>"), oldest first.
    public func takeFailures() -> [String] {
        _ = done.drain()
        return lock.withLock {
            let taken = failed
            failed = []
            return taken
        }
    }

    private func writerLoop() {
        var entry = pollfd(fd: work.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let next = lock.withLock { () -> (StickState?, Bool) in
                guard !pending.isEmpty else { return (nil, quitting) }
                let state = pending.removeFirst()
                writing = state
                return (state, false)
            }
            if let state = next.0 {
                var failure: String?
                do {
                    try inner.save(state)
                } catch {
                    failure = "saving stick " + state.stick.uuid + ": " + error.description
                }
                lock.withLock {
                    writing = nil
                    if let failure { failed.append(failure) }
                }
                done.notify()
                continue
            }
            if next.1 { return }
            _ = poll(&entry, 1, -1)
            _ = work.drain()
        }
    }
}
