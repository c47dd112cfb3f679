// `poll`, `pollfd` and errno constants come from headers Clang attributes to CALSA in this module
// (alsa-lib's header includes them first); Embedded Swift wants the owning module imported.
import CALSA
import CSystem
import ShflCore
import ShflSystem
import Synchronization

/// The compressed stream of the track playing, read ahead by a thread of its own (SPEC §14): a
/// stick that stalls for seconds is never heard, because the audio thread decodes from memory
/// the reader filled seconds earlier and never touches the file itself.
///
/// Two threads, one ring of `capacity` bytes between them (512 KiB: 13 s of 320 kbps):
/// - the reader thread (`start()`) owns the `TrackFile`: it opens, seeks and reads, and may
///   block in any of them for as long as the storage stalls. It fills the ring as far ahead as
///   it has room, in reads of up to `readBytes`.
/// - the consumer (the audio thread, through libmpg123's replaced reader in `Mpg123Decoder`)
///   copies bytes out (`read(into:)`) without locks or allocation. It waits only when the ring
///   is empty, which a stall shorter than the ring's lead never causes. Opening a file and a seek
///   outside what is buffered are requests the reader carries out; the consumer waits for them
///   (between tracks, at resume).
///
/// Every wait of the consumer also ends when `interrupt()` is called from another thread (the
/// event loop sending a cut: play or stop), so a dead file can hang only the reader thread,
/// never the audio thread: the read then fails (`Errno.interrupted`) and the cut goes on.
///
/// Positions are absolute file offsets: the ring holds `[consumed, produced)`, at index
/// `offset % capacity`. `produced` is written by the reader, `consumed` by the consumer, except
/// while a request is outstanding: then the consumer keeps off the ring, and the reader resets
/// both to the request's offset before acknowledging it.
public final class ReadAheadStream: @unchecked Sendable {
    /// The default ring: 512 KiB, 13 s of 320 kbps audio, 26 s of 160 kbps.
    public static let defaultCapacity = 512 * 1024

    public let capacity: Int
    private let readBytes: Int
    private let file: any TrackFile
    private let ring: UnsafeMutableRawPointer

    private let produced = Atomic<Int>(0)
    private let consumed = Atomic<Int>(0)
    /// The offset where the file ended (its size once read to the end); -1 until then.
    private let endOffset = Atomic<Int>(-1)
    /// The errno of a failed read at `produced`; 0 when none.
    private let readError = Atomic<Int32>(0)
    /// The reader waits for room: the consumer wakes it when it has freed `readBytes`.
    private let readerWaiting = Atomic<Bool>(false)

    private let requests = SingleProducerQueue<Request>(capacity: 8)
    private let acknowledged = Atomic<Int>(0)
    /// Consumer side: the serial of the last request sent.
    private var sentSerial = 0
    /// Consumer side: the file's size, from the last open acknowledged.
    public private(set) var size = 0

    private let interrupts = Atomic<Int>(0)
    /// Consumer side: interrupts up to this one are handled (the cut they announced came).
    private var interruptsHandled = 0

    /// Wakes the reader: a request, room in the ring, quitting.
    private let readerWake: EventNotifier
    /// Wakes the consumer: data, an acknowledgement, an interrupt.
    private let consumerWake: EventNotifier
    private let consumerPoll: UnsafeMutablePointer<pollfd>
    private let quitRequested = Atomic<Bool>(false)
    private var thread: SystemThread?

    private final class Request {
        enum Kind { case open(FilePath), seek, close }
        let kind: Kind
        let offset: Int
        let serial: Int
        /// Written by the reader before it acknowledges `serial`.
        var size = 0
        var error: Errno?

        init(_ kind: Kind, offset: Int, serial: Int) {
            self.kind = kind
            self.offset = offset
            self.serial = serial
        }
    }
    /// Consumer side: the last request sent, to read its outcome.
    private var lastRequest: Request?

    public init(file: any TrackFile, capacity: Int = ReadAheadStream.defaultCapacity, readBytes: Int = 32 * 1024) throws(Errno) {
        self.file = file
        self.capacity = max(capacity, 4_096)
        self.readBytes = min(max(readBytes, 512), self.capacity / 2)
        ring = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
        readerWake = try EventNotifier()
        do {
            consumerWake = try EventNotifier()
        } catch {
            readerWake.close()
            ring.deallocate()
            throw error
        }
        consumerPoll = UnsafeMutablePointer<pollfd>.allocate(capacity: 1)
        consumerPoll.initialize(to: pollfd(fd: consumerWake.descriptor.rawValue, events: Int16(POLLIN), revents: 0))
    }

    deinit {
        stop()
        file.close()
        readerWake.close()
        consumerWake.close()
        consumerPoll.deallocate()
        ring.deallocate()
    }

    /// Starts the reader thread.
    public func start() throws(Errno) {
        guard thread == nil else { return }
        thread = try SystemThread { [self] in readerLoop() }
    }

    /// Stops and joins the reader thread. It may be blocked on a dead file: joining waits for
    /// the kernel to fail that read (on shutdown only).
    public func stop() {
        guard let thread else { return }
        quitRequested.store(true, ordering: .releasing)
        readerWake.notify()
        thread.join()
        self.thread = nil
    }

    // MARK: - Interrupts (any thread)

    /// Any thread: makes the consumer's current and next waits give up (`Errno.interrupted`)
    /// until `resume(through:)` with the serial returned. The event loop calls it before it
    /// queues a cut for the audio thread, so a wait on a stalled file cannot hold the cut.
    public func interrupt() -> Int {
        let serial = interrupts.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        consumerWake.notify()
        return serial
    }

    /// Consumer: the cut announced by interrupt `serial` has come; waits are honoured again
    /// (unless a later interrupt is pending).
    public func resume(through serial: Int) {
        interruptsHandled = max(interruptsHandled, serial)
    }

    private var isInterrupted: Bool {
        interrupts.load(ordering: .sequentiallyConsistent) > interruptsHandled
    }

    // MARK: - Consumer (the audio thread)

    /// Opens `path` on the reader thread and waits for it; the file's size.
    public func open(_ path: FilePath) throws(Errno) -> Int {
        let request = try send(.open(path), offset: 0)
        if let error = request.error { throw error }
        size = request.size
        return size
    }

    /// Lets go of the file, without waiting (the reader may be stuck in a read of a dead file).
    public func close() {
        _ = try? send(.close, offset: 0, wait: false)
        size = 0
    }

    /// The consumer's position in the file.
    public var position: Int { consumed.load(ordering: .relaxed) }

    /// Moves the consumer to `offset`: within what is buffered at once, otherwise by a request
    /// to the reader (which refills the ring from there).
    public func seek(to offset: Int) throws(Errno) {
        guard offset >= 0 else { throw Errno(EINVAL) }
        if isCurrent {
            let from = consumed.load(ordering: .relaxed)
            if offset >= from && offset <= produced.load(ordering: .acquiring) {
                advanceConsumed(to: offset)
                return
            }
        }
        let request = try send(.seek, offset: offset)
        if let error = request.error { throw error }
    }

    /// Copies up to `buffer.count` bytes at the consumer's position; 0 at the end of the file.
    /// Waits only when nothing is buffered yet.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard buffer.count > 0, let base = buffer.baseAddress else { return 0 }
        if !isCurrent { try waitForAcknowledgement() }
        let from = consumed.load(ordering: .relaxed)
        while true {
            let available = produced.load(ordering: .acquiring) - from
            if available > 0 {
                let count = min(available, buffer.count)
                let index = from % capacity
                let first = min(count, capacity - index)
                base.copyMemory(from: ring + index, byteCount: first)
                if count > first { (base + first).copyMemory(from: ring, byteCount: count - first) }
                advanceConsumed(to: from + count)
                return count
            }
            let end = endOffset.load(ordering: .acquiring)
            if end >= 0 && from >= end { return 0 }
            let error = readError.load(ordering: .acquiring)
            if error != 0 { throw Errno(error) }
            try waitForReader()
        }
    }

    private var isCurrent: Bool { acknowledged.load(ordering: .acquiring) == sentSerial }

    private func advanceConsumed(to offset: Int) {
        consumed.store(offset, ordering: .sequentiallyConsistent)
        if readerWaiting.load(ordering: .sequentiallyConsistent)
            && capacity - (produced.load(ordering: .acquiring) - offset) >= readBytes
            && readerWaiting.exchange(false, ordering: .sequentiallyConsistent) {
            readerWake.notify()
        }
    }

    private func send(_ kind: Request.Kind, offset: Int, wait: Bool = true) throws(Errno) -> Request {
        sentSerial += 1
        let request = Request(kind, offset: offset, serial: sentSerial)
        lastRequest = request
        // Eight requests outstanding means the reader is stuck on a dead file: then the
        // consumer waits (interruptibly) for room rather than losing one.
        while !requests.push(request) {
            try waitForReader()
        }
        readerWake.notify()
        if wait { try waitForAcknowledgement() }
        return request
    }

    private func waitForAcknowledgement() throws(Errno) {
        while !isCurrent { try waitForReader() }
    }

    /// Waits for the reader's next notification; throws `.interrupted` when interrupted.
    private func waitForReader() throws(Errno) {
        _ = consumerWake.drain()
        if isInterrupted { throw Errno.interrupted }
        _ = poll(consumerPoll, 1, 5_000)
        if isInterrupted { throw Errno.interrupted }
    }

    // MARK: - The reader thread

    private func readerLoop() {
        var isOpen = false
        while !quitRequested.load(ordering: .acquiring) {
            if let request = requests.pop() {
                isOpen = carryOut(request, isOpen: isOpen)
                continue
            }
            let end = endOffset.load(ordering: .relaxed)
            let failed = readError.load(ordering: .relaxed) != 0
            let top = produced.load(ordering: .relaxed)
            if isOpen && end < 0 && !failed {
                let room = capacity - (top - consumed.load(ordering: .sequentiallyConsistent))
                if room >= readBytes {
                    fill(from: top, room: room)
                    continue
                }
                readerWaiting.store(true, ordering: .sequentiallyConsistent)
                // Room may have come between the check and the flag: look once more.
                if capacity - (top - consumed.load(ordering: .sequentiallyConsistent)) >= readBytes {
                    readerWaiting.store(false, ordering: .sequentiallyConsistent)
                    continue
                }
            }
            var wake = pollfd(fd: readerWake.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&wake, 1, -1)
            _ = readerWake.drain()
        }
        file.close()
    }

    /// One read into the ring's free space at `top` (contiguous, at most `readBytes`).
    private func fill(from top: Int, room: Int) {
        let index = top % capacity
        let count = min(room, readBytes, capacity - index)
        do {
            let read = try file.read(into: UnsafeMutableRawBufferPointer(start: ring + index, count: count))
            if read == 0 {
                endOffset.store(top, ordering: .releasing)
            } else {
                produced.store(top + read, ordering: .releasing)
            }
        } catch {
            readError.store(error.code, ordering: .releasing)
        }
        consumerWake.notify()
    }

    /// Opens, seeks or closes; resets the ring to the request's offset and acknowledges it.
    private func carryOut(_ request: Request, isOpen: Bool) -> Bool {
        var open = isOpen
        var offset = request.offset
        switch request.kind {
        case .open(let path):
            do {
                request.size = try file.open(path)
                open = true
            } catch {
                request.error = error
                file.close()
                open = false
            }
            offset = 0
        case .seek:
            if open {
                do {
                    try file.seek(to: offset)
                } catch {
                    request.error = error
                }
            }
        case .close:
            file.close()
            open = false
        }
        readError.store(0, ordering: .relaxed)
        endOffset.store(-1, ordering: .relaxed)
        readerWaiting.store(false, ordering: .relaxed)
        produced.store(offset, ordering: .relaxed)
        consumed.store(offset, ordering: .relaxed)
        acknowledged.store(request.serial, ordering: .sequentiallyConsistent)
        consumerWake.notify()
        return open
    }
}
