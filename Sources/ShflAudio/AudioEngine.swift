import CSystem
import ShflCore
import ShflSystem
import Synchronization

/// The real-time audio thread (SPEC §7): decodes the current track and writes it to the sink,
/// commanded by the event loop through a lock-free queue, reporting back through another one
/// and an eventfd (`reportDescriptor`) the event loop polls.
///
/// On its hot path (decode, gain, write) the thread takes no lock, allocates nothing and
/// logs nothing. Opening a track does allocate (libmpg123); that is between tracks.
/// Consecutive tracks of one format go to the device back to back: after a track ends the
/// device keeps playing what is queued while the next `play` arrives, so nothing is lost or
/// inserted. Skip cuts within one period (`discard`). A failing device is retried with
/// back-off, from 100 ms doubling to 5 s, never in a busy loop.
///
/// The thread decodes in chunks of `chunkFrames` (big chunks cost fewer instructions per
/// second of audio) but never blocks for a whole chunk: it hands the device what fits
/// (`AudioSink.write`) and waits for room together with its command eventfd
/// (`AudioSink.waitUntilWritable(orReadable:)`), so a command is handled as soon as it comes,
/// mid-chunk. Skip and stop drop the rest of the chunk; pause keeps it for resume. `position`
/// counts the frames handed to the device, so a pause reports exactly where it stopped.
public final class AudioEngine<Decoder: TrackDecoder, Sink: AudioSink> {
    private let decoder: Decoder
    private let sink: Sink
    /// A command; for a cut (play, stop), the decoder's interrupt serial it announced and its
    /// number among cuts.
    private struct Queued {
        var command: AudioCommand
        var interrupt: Int?
        var cut: Int
    }
    private let commands = SingleProducerQueue<Queued>(capacity: 64)
    private let reports = SingleProducerQueue<AudioReport>(capacity: 256)
    private let commandNotifier: EventNotifier
    private let reportNotifier: EventNotifier
    private var thread: SystemThread?
    private let quitRequested = Atomic<Bool>(false)
    /// Frames per decode (one MPEG frame is 1,152): commands do not wait for a chunk to play.
    private let chunkFrames: Int

    /// The descriptor the event loop polls; readable when reports are waiting.
    public var reportDescriptor: FileDescriptor { reportNotifier.descriptor }

    public init(decoder: Decoder, sink: Sink, chunkFrames: Int = 1_152) throws(Errno) {
        self.decoder = decoder
        self.sink = sink
        self.chunkFrames = chunkFrames
        commandNotifier = try EventNotifier()
        reportNotifier = try EventNotifier()
    }

    deinit {
        stopThread()
        commandNotifier.close()
        reportNotifier.close()
    }

    /// Starts the audio thread. With `realTimePriority`, it asks for SCHED_FIFO at that
    /// priority; with `lockMemory`, it locks the process in RAM (`mlockall`) so page faults
    /// cannot stall playback. Either refused (EPERM) is reported once, as `deviceFailed`, and
    /// playback goes on without it.
    public func start(realTimePriority: Int32? = nil, lockMemory: Bool = false) throws(Errno) {
        guard thread == nil else { return }
        if lockMemory && mlockall(MCL_CURRENT | MCL_FUTURE) != 0 {
            report(.deviceFailed("memory not locked (" + Errno.current.description + "); playing without mlockall"))
        }
        thread = try SystemThread { [self] in
            if let priority = realTimePriority {
                do throws(Errno) {
                    try SystemThread.requestRealTimeScheduling(priority: priority)
                } catch {
                    report(.deviceFailed("real-time priority " + String(priority) + " not granted (" + error.description + "); playing at normal priority"))
                }
            }
            run()
        }
    }

    /// Stops and joins the audio thread (the device is left open; the sink's owner closes it).
    public func stopThread() {
        guard let thread else { return }
        quitRequested.store(true, ordering: .releasing)
        commandNotifier.notify()
        thread.join()
        self.thread = nil
    }

    /// Event-loop side: queues a command for the audio thread. False if the queue is full
    /// (64 commands unread: the audio thread is stuck).
    @discardableResult
    public func send(_ command: AudioCommand) -> Bool {
        var queued = Queued(command: command, interrupt: nil, cut: 0)
        switch command {
        case .play, .stop:
            // Counted first: the audio thread may see the interrupted read before the command.
            queued.cut = cutsSent.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            // A wait of the audio thread on a stalled file (the stick hangs, or is gone) ends now:
            // the cut must not wait for it.
            queued.interrupt = decoder.interruptReads()
        case .pause, .resume, .setVolume:
            break
        }
        let pushed = commands.push(queued)
        commandNotifier.notify()
        return pushed
    }

    /// Event-loop side: every report waiting, oldest first.
    public func takeReports() -> [AudioReport] {
        _ = reportNotifier.drain()
        var taken: [AudioReport] = []
        while let report = reports.pop() { taken.append(report) }
        return taken
    }

    // MARK: - The audio thread

    /// The audio thread's lifecycle. Every change goes through `enter(_:)`; what each command
    /// does in each state is in `handle(_:)`, what the thread waits for in each state in `run()`.
    private enum State: Equatable {
        /// No track: waits for a command.
        case idle
        /// Decoding the track and handing it to the device (configured first, when its format
        /// is not the device's).
        case playing
        /// The device holds the track where it stopped; `resume` goes on from there.
        case paused
        /// The device failed: it is opened again after `retryMilliseconds` (back-off from
        /// 100 ms, doubling up to 5 s), or at the next command, and the track goes on.
        case waitingForDevice(retryMilliseconds: Int32)
        /// The track ended and nothing followed yet: the device plays what it holds while the
        /// next `play` may come and join it without a gap (`endGraceMilliseconds`).
        case ended
        /// Nothing followed: the device plays out what it holds, without holding commands; then
        /// `idle`.
        case playingOut
    }

    private var state = State.idle
    /// The decoded samples of the current chunk not yet handed to the device:
    /// `buffer[pendingStart..<pendingEnd]`.
    private var pendingStart = 0
    private var pendingEnd = 0
    private var ticket = 0
    /// The current track's format, and the one the device is configured with (nil: to be
    /// configured, as after a device failure).
    private var format: AudioFormat?
    private var deviceFormat: AudioFormat?
    /// Frames of the current track written to the device, and the frame it started from.
    private var position = 0
    private var startPosition = 0
    private var nextProgress = 0
    /// `progress` reports per second of audio: the position the player saves when the stick is
    /// pulled is at most this much behind what was heard (a report is an eventfd write).
    private static var progressPerSecond: Int { 4 }
    private var info: TrackInfo?
    /// Whether the current track's `started` report went out (with its first frame).
    private var startReported = false
    private var gainQ15: Int32 = 1 << 15
    private var reportedUnderruns = 0
    /// The last back-off delay (0 after the device configured well).
    private var lastRetryMilliseconds: Int32 = 0
    /// How long the thread waits for the next track before the device plays out.
    private let endGraceMilliseconds: Int32 = 250
    /// Cuts (play, stop) the event loop sent, and the last one the audio thread handled.
    private let cutsSent = Atomic<Int>(0)
    private var cutsHandled = 0

    private func report(_ report: AudioReport) {
        reports.push(report)
        reportNotifier.notify()
    }

    private func enter(_ next: State) {
        state = next
    }

    private func run() {
        var buffer = [Int16](repeating: 0, count: chunkFrames * 2)
        while !quitRequested.load(ordering: .acquiring) {
            switch state {
            case .idle, .paused:
                _ = waitForCommand(timeoutMilliseconds: -1)
            case .ended:
                if !waitForCommand(timeoutMilliseconds: endGraceMilliseconds) && state == .ended { enter(.playingOut) }
            case .waitingForDevice(let delay):
                _ = waitForCommand(timeoutMilliseconds: delay)
                // Retried after the delay, or at once after a command (as a device plugged
                // back in is tried when the user presses a button).
                if case .waitingForDevice = state { enter(.playing) }
            case .playingOut:
                playOut()
            case .playing:
                if deviceFormat != format {
                    configureSink()
                } else if pendingStart < pendingEnd {
                    writePending(&buffer)
                } else {
                    playChunk(&buffer)
                }
            }
            while let command = commands.pop() { handle(command) }
        }
        decoder.close()
    }

    /// Waits until a command is queued or the timeout passes (-1: no timeout); true if one came.
    private func waitForCommand(timeoutMilliseconds: Int32) -> Bool {
        var poller = Poller()
        poller.watch(commandNotifier.descriptor)
        _ = try? poller.wait(timeoutMilliseconds: timeoutMilliseconds)
        return commandNotifier.drain() > 0
    }

    /// A cut the event loop announced (`send`) has not been handled yet: a decoder failure now
    /// is the interrupted wait on a stalled file, not the track's fault.
    private var isCutPending: Bool {
        cutsSent.load(ordering: .sequentiallyConsistent) > cutsHandled
    }

    private func handle(_ queued: Queued) {
        let command = queued.command
        if let interrupt = queued.interrupt {
            decoder.resumeReads(through: interrupt)
            cutsHandled = queued.cut
        }
        switch (command, state) {
        case (.play(let path, let start, let newTicket), _):
            dropPending()
            switch state {
            case .playing, .paused, .waitingForDevice: discardQueued()
            // The device still plays the end of the last track: the next one joins it.
            case .idle, .ended, .playingOut: break
            }
            ticket = newTicket
            open(path, from: start)
        case (.pause, .playing):
            enter(.paused)
            do {
                let dropped = try sink.setPaused(true)
                if dropped > 0 {
                    // The device could not hold its queue: play those frames again on resume
                    // (decoded afresh, so the rest of the chunk goes too).
                    position = max(position - dropped, 0)
                    try? decoder.seek(toFrame: position)
                    dropPending()
                }
            } catch {
                deviceFailed(error)
            }
            report(.progress(ticket: ticket, position: heardPosition))
        case (.pause, .waitingForDevice):
            enter(.paused)
            report(.progress(ticket: ticket, position: heardPosition))
        case (.pause, _):
            break
        case (.resume, .paused):
            enter(.playing)
            guard deviceFormat != nil else { return }
            do {
                try sink.setPaused(false)
            } catch {
                deviceFailed(error)
            }
        case (.resume, _):
            break
        case (.stop, .playing), (.stop, .paused), (.stop, .waitingForDevice):
            dropPending()
            discardQueued()
            decoder.close()
            enter(.idle)
        case (.stop, .ended):
            // The last track's end still plays: let it.
            enter(.playingOut)
        case (.stop, .idle), (.stop, .playingOut):
            break
        case (.setVolume(let level), _):
            gainQ15 = AudioEngine.gain(forLevel: level)
        }
    }

    private func open(_ path: FilePath, from start: Duration) {
        let opened: TrackInfo
        do {
            opened = try decoder.open(path)
            let startFrame = Int(start.nanoseconds / 1_000 * Int64(opened.format.sampleRate) / 1_000_000)
            if startFrame > 0 { try decoder.seek(toFrame: startFrame) }
            position = startFrame
            startPosition = startFrame
        } catch {
            decoder.close()
            enter(.idle)
            // Interrupted by a newer cut: that one decides what plays.
            if !isCutPending { report(.failed(ticket: ticket, reason: error.description)) }
            return
        }
        info = opened
        format = opened.format
        nextProgress = position + opened.format.sampleRate / AudioEngine.progressPerSecond
        startReported = false
        enter(.playing)
    }

    /// Sets the device to the track's format (`playing` only). A device holding audio of
    /// another format plays it out first, without holding commands (`AudioSink.playOut`).
    /// Also the retry after a device failure: it reopens the device and playback continues
    /// where the track was.
    private func configureSink() {
        guard let format else { return }
        if deviceFormat != nil {
            do {
                guard try sink.playOut(orReadable: commandNotifier.descriptor.rawValue) else {
                    _ = commandNotifier.drain()
                    return
                }
            } catch {
                deviceFailed(error)
                return
            }
        }
        do {
            try sink.configure(format)
            deviceFormat = format
            lastRetryMilliseconds = 0
        } catch {
            deviceFailed(error)
        }
    }

    /// `playingOut`: lets the device play what it holds; a command ends the wait (the loop
    /// handles it, then comes back here if nothing changed).
    private func playOut() {
        do {
            if try sink.playOut(orReadable: commandNotifier.descriptor.rawValue) {
                enter(.idle)
            } else {
                _ = commandNotifier.drain()
            }
        } catch {
            deviceFailed(error)
        }
    }

    private func dropPending() {
        pendingStart = 0
        pendingEnd = 0
    }

    private func discardQueued() {
        guard deviceFormat != nil else { return }
        do {
            try sink.discard()
        } catch {
            deviceFailed(error)
        }
    }

    /// Decodes one chunk and starts writing it: the hot path.
    private func playChunk(_ buffer: inout [Int16]) {
        guard let format else { return }
        let result: DecodeResult
        do {
            result = try buffer.withUnsafeMutableBufferPointer { (pointer) throws(DecodeError) -> DecodeResult in
                try decoder.decode(into: UnsafeMutableBufferPointer(rebasing: pointer[0..<(chunkFrames * format.channels)]))
            }
        } catch {
            enter(.idle)
            if !isCutPending { report(.failed(ticket: ticket, reason: error.description)) }
            return
        }
        switch result {
        case .decoded(let frames):
            guard frames > 0 else { return }
            let count = frames * format.channels
            if gainQ15 != 1 << 15 { applyGain(&buffer, count: count) }
            pendingStart = 0
            pendingEnd = count
            writePending(&buffer)
        case .formatChanged(let changed):
            // The device plays out the old format, then is configured (the `playing` state).
            self.format = changed
        case .endOfTrack:
            enter(.ended)
            if !startReported, let info {
                // An empty track still "started" before it finished, for the player's sake.
                startReported = true
                report(.started(ticket: ticket, info))
            }
            report(.finished(ticket: ticket))
        }
    }

    /// Hands the device what it takes of the pending samples; if some are left, waits for room
    /// or a command, whichever comes first (the caller's loop then handles the command or
    /// writes again).
    private func writePending(_ buffer: inout [Int16]) {
        guard let format else { return }
        let frames: Int
        do {
            frames = try buffer.withUnsafeBufferPointer { (pointer) throws(DeviceError) -> Int in
                try sink.write(UnsafeBufferPointer(rebasing: pointer[pendingStart..<pendingEnd]))
            }
        } catch {
            deviceFailed(error)
            return
        }
        pendingStart += frames * format.channels
        if frames > 0 {
            position += frames
            if !startReported, let info {
                startReported = true
                report(.started(ticket: ticket, info))
            }
            if position >= nextProgress {
                nextProgress = position + format.sampleRate / AudioEngine.progressPerSecond
                report(.progress(ticket: ticket, position: heardPosition))
            }
            if sink.underruns != reportedUnderruns {
                reportedUnderruns = sink.underruns
                report(.underruns(reportedUnderruns))
            }
        }
        guard pendingStart < pendingEnd else { return }
        do {
            if try sink.waitUntilWritable(orReadable: commandNotifier.descriptor.rawValue) == .interrupted {
                // Reset before the caller pops the queue: a command pushed after this
                // notifies again, so none is missed and the next wait does not spin.
                _ = commandNotifier.drain()
            }
        } catch {
            deviceFailed(error)
        }
    }

    private func applyGain(_ buffer: inout [Int16], count: Int) {
        let gain = gainQ15
        for index in 0..<count {
            buffer[index] = Int16(truncatingIfNeeded: (Int32(buffer[index]) * gain) >> 15)
        }
    }

    /// The device failed: reported; it is configured again before the next write. Playing, the
    /// thread waits first (back-off); paused, at resume; at the end of a track, never.
    private func deviceFailed(_ error: DeviceError) {
        report(.deviceFailed(error.description))
        deviceFormat = nil
        lastRetryMilliseconds = lastRetryMilliseconds == 0 ? 100 : min(lastRetryMilliseconds * 2, 5_000)
        switch state {
        case .playing, .waitingForDevice: enter(.waitingForDevice(retryMilliseconds: lastRetryMilliseconds))
        case .ended, .playingOut: enter(.idle)
        case .idle, .paused: break
        }
    }

    /// Where the listener is in the track: the frames written less those the device has not
    /// played yet (a resume must not skip what was never heard). At a gapless join the last
    /// track's end is still queued: never before where this track began.
    private var heardPosition: Duration {
        duration(ofFrames: max(position - sink.queuedFrames, startPosition))
    }

    private func duration(ofFrames frames: Int) -> Duration {
        guard let format, format.sampleRate > 0 else { return .zero }
        return .milliseconds(Int64(frames) * 1_000 / Int64(format.sampleRate))
    }

    /// Volume 0...100 to a Q15 gain on a cubic curve (close to how loudness is heard):
    /// 100 → 1.0 (samples untouched), 50 → 0.125 (-18 dB), 0 → silence.
    static func gain(forLevel level: Int) -> Int32 {
        let clamped = Int64(min(max(level, 0), 100))
        return Int32(clamped * clamped * clamped * (1 << 15) / 1_000_000)
    }
}
