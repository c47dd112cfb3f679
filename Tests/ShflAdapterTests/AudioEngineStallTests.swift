import Foundation
import ShflAudio
import ShflCore
import ShflSimulated
import ShflSystem
import Synchronization
import Testing

/// A `TrackFile` whose first read at or past `stallOffset` blocks until the test releases it:
/// a stick retrying a weak sector mid-track. Deterministic: the test decides when it ends.
final class StallingTrackFile: TrackFile, @unchecked Sendable {
    private let inner = SystemTrackFile()
    private let stallOffset: Int
    private var offset = 0
    private var stalled = false
    /// Signalled when the stalled read begins.
    let began = DispatchSemaphore(value: 0)
    /// The stalled read returns once this is signalled.
    let release = DispatchSemaphore(value: 0)

    init(stallAt offset: Int) { stallOffset = offset }

    func open(_ path: FilePath) throws(Errno) -> Int {
        offset = 0
        return try inner.open(path)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        // Only the read that covers `stallOffset` (not libmpg123's look at the ID3v1 tag at the end).
        if !stalled && offset <= stallOffset && offset + buffer.count > stallOffset {
            stalled = true
            began.signal()
            release.wait()
        }
        let read = try inner.read(into: buffer)
        offset += read
        return read
    }

    func seek(to offset: Int) throws(Errno) {
        try inner.seek(to: offset)
        self.offset = offset
    }

    func close() { inner.close() }
}

/// An `AudioSink` decorator that plays in real time like a device with a `lead` buffer
/// (`PacedAudioSink`) and counts the gaps a listener would hear: a write that comes after
/// everything written before has already played out (an underrun).
final class GapCountingSink: AudioSink, @unchecked Sendable {
    let paced: PacedAudioSink<SimulatedAudioSink>
    private var rate = 44_100
    private var playedUntil: ContinuousClock.Instant?
    private var paused = false
    /// Read from the test thread while the audio thread writes.
    let frames = Atomic<Int>(0)
    let gaps = Atomic<Int>(0)

    init(lead: Duration) {
        paced = PacedAudioSink(SimulatedAudioSink(), pacing: true, lead: lead)
    }

    var underruns: Int { paced.underruns }

    func configure(_ format: AudioFormat) throws(DeviceError) {
        rate = format.sampleRate
        try paced.configure(format)
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int {
        let taken = try paced.write(samples)
        guard taken > 0 else { return 0 }
        let now = ContinuousClock.now
        if let until = playedUntil, now > until { gaps.wrappingAdd(1, ordering: .relaxed) }
        playedUntil = max(playedUntil ?? now, now) + .nanoseconds(Int64(taken) * 1_000_000_000 / Int64(rate))
        frames.wrappingAdd(taken, ordering: .relaxed)
        return taken
    }

    func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp {
        try paced.waitUntilWritable(orReadable: interrupt)
    }

    func setPaused(_ paused: Bool) throws(DeviceError) -> Int {
        self.paused = paused
        return try paced.setPaused(paused)
    }

    func discard() throws(DeviceError) {
        playedUntil = nil
        try paced.discard()
    }

    func drain() throws(DeviceError) {
        try paced.drain()
        playedUntil = nil
    }
}

@Suite(.serialized) struct AudioEngineStallTests {
    /// 160 KiB read ahead: 4 s of this 320 kbps track, so the stall below comes mid-track (the
    /// default ring holds all of a 10 s track).
    static let readAhead = 160 * 1024

    /// The track decoded without a stall and without pacing: what the stalled run must give.
    func unstalledSamples(_ path: FilePath) throws -> [Int16] {
        let sink = SimulatedAudioSink()
        let engine = try AudioEngine(decoder: try Mpg123Decoder(readAheadBytes: Self.readAhead), sink: sink)
        try engine.start()
        engine.send(.play(path, from: .zero, ticket: 1))
        let reports = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        #expect(reports.contains { $0 == .finished(ticket: 1) })
        return sink.samples
    }

    @Test func aReadStallOfTwoSecondsMidTrackIsNotHeard() throws {
        let path = try AudioFixtures.path("bench10.mp3")
        let expected = try unstalledSamples(path)
        // The first read past 192 KiB blocks: the reader makes it when 64 KiB have been
        // consumed (1.6 s into the track), with 3.2 s of the track read ahead.
        let file = StallingTrackFile(stallAt: 192 * 1024)
        let sink = GapCountingSink(lead: .milliseconds(200))
        let engine = try AudioEngine(decoder: try Mpg123Decoder(file: file, readAheadBytes: Self.readAhead), sink: sink)
        try engine.start()
        engine.send(.play(path, from: .zero, ticket: 1))
        #expect(file.began.wait(timeout: .now() + 20) == .success, "the reader never reached the stall")
        // Hold the read until 2 s of audio more have been played: the stall outlasts the device
        // buffer (200 ms) tenfold.
        let atStall = sink.frames.load(ordering: .relaxed)
        let stallStarted = ContinuousClock.now
        var poller = Poller()
        poller.watch(engine.reportDescriptor)
        var reports: [AudioReport] = []
        while sink.frames.load(ordering: .relaxed) < atStall + 2 * 44_100 && ContinuousClock.now - stallStarted < .seconds(10) {
            _ = try poller.wait(timeoutMilliseconds: 20)
            reports += engine.takeReports()
        }
        let stall = ContinuousClock.now - stallStarted
        let playedDuringStall = sink.frames.load(ordering: .relaxed) - atStall
        file.release.signal()
        reports += try collectReports(from: engine, timeout: 20, until: isFinished(1))
        engine.stopThread()
        #expect(stall >= .seconds(2), "the read stalled for \(stall) only")
        #expect(atStall > 0 && playedDuringStall >= 2 * 44_100, "\(playedDuringStall) frames played during the stall, \(atStall) before it")
        #expect(reports.contains { $0 == .finished(ticket: 1) }, "\(reports)")
        #expect(sink.gaps.load(ordering: .relaxed) == 0, "the audio had \(sink.gaps.load(ordering: .relaxed)) gaps")
        let captured = sink.paced.inner.samples
        let difference = firstDifference(captured, expected)
        #expect(difference == nil, "the stalled run differs from the unstalled one at sample \(difference ?? -1) (\(captured.count) of \(expected.count) samples)")
    }
}

/// The read-ahead's consumer side: a wait on a file that stalls (or is dead) ends when the event
/// loop announces a cut, so the audio thread is never held by a stick.
@Suite struct ReadAheadStreamTests {
    @Test func aCutEndsAWaitOnAStalledFileAtOnce() throws {
        let file = StallingTrackFile(stallAt: 8 * 1024)
        let stream = try ReadAheadStream(file: file, capacity: 16 * 1024, readBytes: 4 * 1024)
        try stream.start()
        let size = try stream.open(try AudioFixtures.path("bench10.mp3"))
        #expect(size > 100_000)
        #expect(file.began.wait(timeout: .now() + 10) == .success)
        // Everything before the stall comes out; the next read waits for the stalled file.
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var offset = 0
        while offset < 8 * 1024 {
            offset += try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
        }
        let ended = DispatchSemaphore(value: 0)
        let outcome = ThrowingOutcome()
        DispatchQueue.global().async {
            var spare = [UInt8](repeating: 0, count: 4_096)
            do {
                _ = try spare.withUnsafeMutableBytes { (bytes) throws(Errno) in try stream.read(into: bytes) }
                outcome.set("read returned")
            } catch {
                outcome.set((error as? Errno)?.description ?? "\(error)")
            }
            ended.signal()
        }
        #expect(ended.wait(timeout: .now() + 0.3) == .timedOut, "the read did not wait for the stalled file: \(outcome.value)")
        let cut = ContinuousClock.now
        let serial = stream.interrupt()
        #expect(ended.wait(timeout: .now() + 5) == .success)
        let took = ContinuousClock.now - cut
        #expect(outcome.value == Errno.interrupted.description, "\(outcome.value)")
        // At once; 1 s is for a loaded machine (without the interrupt's wake-up, the wait would
        // end only at its 5 s safety timeout).
        #expect(took < .seconds(1), "the interrupted read returned after \(took)")
        stream.resume(through: serial)
        file.release.signal()
        stream.stop()
    }
}

final class ThrowingOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var text = "nothing"
    var value: String { lock.withLock { text } }
    func set(_ value: String) { lock.withLock { text = value } }
}
