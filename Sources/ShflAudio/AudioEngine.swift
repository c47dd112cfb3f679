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
    /// A command, and for a cut (play, stop) the decoder's interrupt serial it announced.
    private struct Queued {
        var command: AudioCommand
        var interrupt: Int?
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
        var interrupt: Int?
        switch command {
        case .play, .stop:
            // A wait of the audio thread on a stalled file (the stick hangs, or is gone) ends now:
            // the cut must not wait for it.
            interrupt = decoder.interruptReads()
        case .pause, .resume, .setVolume:
            break
        }
        let queued = commands.push(Queued(command: command, interrupt: interrupt))
        commandNotifier.notify()
        return queued
    }

    /// Event-loop side: every report waiting, oldest first.
    public func takeReports() -> [AudioReport] {
        _ = reportNotifier.drain()
        var taken: [AudioReport] = []
        while let report = reports.pop() { taken.append(report) }
        return taken
    }

    // MARK: - The audio thread

    private enum Playback {
        case idle
        case playing
        case paused
    }

    private var playback = Playback.idle
    /// The decoded samples of the current chunk not yet handed to the device:
    /// `buffer[pendingStart..<pendingEnd]`.
    private var pendingStart = 0
    private var pendingEnd = 0
    private var ticket = 0
    private var format: AudioFormat?
    private var position = 0
    private var nextProgress = 0
    /// `progress` reports per second of audio: the position the player saves when the stick is
    /// pulled is at most this much behind what was played (a report is an eventfd write).
    private static var progressPerSecond: Int { 4 }
    private var startPending = false
    private var info: TrackInfo?
    private var gainQ15: Int32 = 1 << 15
    private var reportedUnderruns = 0
    private var retryDelayMilliseconds: Int32 = 0
    /// A track ended and nothing followed yet: if no command comes soon, let the device play
    /// out what it holds (instead of running dry into an underrun).
    private var drainPending = false
    /// How long the thread waits for the next track before draining.
    private let drainGraceMilliseconds: Int32 = 250

    private func report(_ report: AudioReport) {
        reports.push(report)
        reportNotifier.notify()
    }

    private func run() {
        var buffer = [Int16](repeating: 0, count: chunkFrames * 2)
        while !quitRequested.load(ordering: .acquiring) {
            if playback != .playing || retryDelayMilliseconds > 0 {
                let timeout = playback == .playing ? retryDelayMilliseconds : (drainPending ? drainGraceMilliseconds : -1)
                let commanded = waitForCommand(timeoutMilliseconds: timeout)
                if retryDelayMilliseconds > 0 && playback == .playing { configureSink() }
                if drainPending && !commanded {
                    drainPending = false
                    do {
                        try sink.drain()
                    } catch {
                        deviceFailed(error)
                    }
                }
            }
            while let command = commands.pop() { handle(command) }
            if playback == .playing && retryDelayMilliseconds == 0 {
                if pendingStart < pendingEnd {
                    writePending(&buffer)
                } else {
                    playChunk(&buffer)
                }
            }
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

    private func handle(_ queued: Queued) {
        let command = queued.command
        if let interrupt = queued.interrupt { decoder.resumeReads(through: interrupt) }
        if case .setVolume = command {} else { drainPending = false }
        switch command {
        case .play(let path, let start, let newTicket):
            dropPending()
            if playback != .idle { discardQueued() }
            ticket = newTicket
            open(path, from: start)
        case .pause:
            guard playback == .playing else { return }
            playback = .paused
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
            report(.progress(ticket: ticket, position: duration(ofFrames: position)))
        case .resume:
            guard playback == .paused else { return }
            playback = .playing
            do {
                try sink.setPaused(false)
            } catch {
                deviceFailed(error)
            }
        case .stop:
            dropPending()
            if playback != .idle { discardQueued() }
            decoder.close()
            playback = .idle
        case .setVolume(let level):
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
        } catch {
            playback = .idle
            report(.failed(ticket: ticket, reason: error.description))
            return
        }
        info = opened
        format = opened.format
        nextProgress = position + opened.format.sampleRate / AudioEngine.progressPerSecond
        startPending = true
        playback = .playing
        configureSink()
    }

    /// Sets the device to the track's format. Also the retry after a device failure's back-off
    /// delay: it reopens the device and playback continues where the track was.
    private func configureSink() {
        guard let format else { return }
        do {
            try sink.configure(format)
            retryDelayMilliseconds = 0
        } catch {
            deviceFailed(error)
        }
    }

    private func dropPending() {
        pendingStart = 0
        pendingEnd = 0
    }

    private func discardQueued() {
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
            playback = .idle
            report(.failed(ticket: ticket, reason: error.description))
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
            self.format = changed
            configureSink()
        case .endOfTrack:
            playback = .idle
            drainPending = true
            if startPending, let info {
                // An empty track still "started" before it finished, for the player's sake.
                startPending = false
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
            if startPending, let info {
                startPending = false
                report(.started(ticket: ticket, info))
            }
            if position >= nextProgress {
                nextProgress = position + format.sampleRate / AudioEngine.progressPerSecond
                report(.progress(ticket: ticket, position: duration(ofFrames: position)))
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

    private func deviceFailed(_ error: DeviceError) {
        report(.deviceFailed(error.description))
        retryDelayMilliseconds = retryDelayMilliseconds == 0 ? 100 : min(retryDelayMilliseconds * 2, 5_000)
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
