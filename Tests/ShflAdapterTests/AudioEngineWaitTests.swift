import Foundation
@testable import ShflAudio
import ShflCore
import ShflSimulated
import ShflSystem
import ShflTestKit
import Synchronization
import Testing

/// A device whose buffer the test empties by hand: it takes frames while it has `room`, then
/// waits (in `poll`, on the interrupt descriptor and its own gate) until the test frees room
/// or a command comes. `discard` empties it. Every frame taken is kept in `inner`.
final class GatedSink: AudioSink {
    let inner = SimulatedAudioSink()
    private let room: Atomic<Int>
    private let gate: EventNotifier
    /// How long a wait lasts at most, so a broken engine fails the test instead of hanging it.
    private let waitLimitMilliseconds: Int32 = 5_000
    private let capacity: Int
    private let interruptedWaits = Atomic<Int>(0)
    private let waits = Atomic<Int>(0)

    init(capacity: Int) throws {
        self.capacity = capacity
        room = Atomic(capacity)
        gate = try EventNotifier()
    }

    deinit { gate.close() }

    /// Test side: the device played `frames` (room for that many more).
    func free(_ frames: Int) {
        room.add(frames, ordering: .sequentiallyConsistent)
        gate.notify()
    }

    var waitCount: Int { waits.load(ordering: .sequentiallyConsistent) }
    var interruptedWaitCount: Int { interruptedWaits.load(ordering: .sequentiallyConsistent) }

    var underruns: Int { 0 }

    func configure(_ format: AudioFormat) throws(DeviceError) { try inner.configure(format) }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int {
        let channels = inner.format?.channels ?? 2
        let frames = min(samples.count / channels, room.load(ordering: .sequentiallyConsistent))
        guard frames > 0 else { return 0 }
        let taken = try inner.write(UnsafeBufferPointer(rebasing: samples[0..<(frames * channels)]))
        room.subtract(taken, ordering: .sequentiallyConsistent)
        return taken
    }

    func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp {
        waits.add(1, ordering: .sequentiallyConsistent)
        var entries = [pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: gate.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        while room.load(ordering: .sequentiallyConsistent) == 0 {
            guard poll(&entries, 2, waitLimitMilliseconds) > 0 else { return .writable }
            if entries[0].revents != 0 {
                interruptedWaits.add(1, ordering: .sequentiallyConsistent)
                return .interrupted
            }
            _ = gate.drain()
        }
        return .writable
    }

    func setPaused(_ paused: Bool) throws(DeviceError) -> Int { try inner.setPaused(paused) }

    func discard() throws(DeviceError) {
        try inner.discard()
        room.store(capacity, ordering: .sequentiallyConsistent)
        gate.notify()
    }

    func drain() throws(DeviceError) { try inner.drain() }
}

func expectedSamples(seed: Int, frames: Range<Int>, channels: Int = 2) -> [Int16] {
    frames.flatMap { frame in (0..<channels).map { SimulatedTrackDecoder.sample(seed: seed, frame: frame, channel: $0) } }
}

@Suite struct AudioEngineWaitTests {
    @Test func aDeviceTakingLittleAtATimeGetsEveryFrameInOrder() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/t.mp3"), .init(frames: 10_000, seed: 3))
        let sink = SimulatedAudioSink()
        sink.framesPerWrite = 100
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        try engine.start()
        engine.send(.play(FilePath("/t.mp3"), from: .zero, ticket: 1))
        let reports = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        #expect(reports.contains { $0 == .finished(ticket: 1) })
        #expect(sink.samples == expectedSamples(seed: 3, frames: 0..<10_000))
        // 1,152-frame chunks, 100 frames a write: the engine waited for room between writes.
        #expect(sink.waitCount >= 80)
    }

    /// The hang guard for issue 6's button latency: with the device full and not playing, a
    /// skip is still handled (it used to wait for the whole chunk to be taken).
    @Test func aSkipIsHandledWhileTheDeviceIsFull() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/a.mp3"), .init(frames: 100_000, seed: 1))
        decoder.add(FilePath("/b.mp3"), .init(frames: 2_000, seed: 2))
        let sink = try GatedSink(capacity: 500)
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        try engine.start()
        engine.send(.play(FilePath("/a.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine) { $0.contains { if case .started(1, _) = $0 { true } else { false } } }
        // 500 frames taken of the first 1,152-frame chunk; the engine waits for room.
        try waitUntil { sink.waitCount > 0 }
        engine.send(.play(FilePath("/b.mp3"), from: .zero, ticket: 2))
        let started = try collectReports(from: engine) { $0.contains { if case .started(2, _) = $0 { true } else { false } } }
        #expect(started.contains { if case .started(2, _) = $0 { true } else { false } }, "the skip waited for a device that took nothing")
        #expect(sink.interruptedWaitCount >= 1)
        sink.free(10_000)
        let reports = try collectReports(from: engine, until: isFinished(2))
        engine.stopThread()
        #expect(reports.contains { $0 == .finished(ticket: 2) })
        // The rest of A's chunk was dropped, not written before B.
        #expect(sink.inner.samples == expectedSamples(seed: 1, frames: 0..<500) + expectedSamples(seed: 2, frames: 0..<2_000))
    }

    @Test func aPauseMidChunkReportsTheFramesTakenAndResumesWithTheRest() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/a.mp3"), .init(frames: 4_410, seed: 5))
        let sink = try GatedSink(capacity: 882)
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        try engine.start()
        engine.send(.play(FilePath("/a.mp3"), from: .zero, ticket: 1))
        try waitUntil { sink.waitCount > 0 }
        engine.send(.pause)
        let paused = try collectReports(from: engine) { $0.contains { if case .progress = $0 { true } else { false } } }
        // 882 frames taken of 44,100 Hz: exactly 20 ms.
        #expect(paused.contains { $0 == .progress(ticket: 1, position: .milliseconds(20)) }, "\(paused)")
        #expect(sink.inner.isPaused)
        sink.free(100_000)
        engine.send(.resume)
        let reports = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        #expect(reports.contains { $0 == .finished(ticket: 1) })
        #expect(sink.inner.samplesWrittenWhilePaused == 0)
        #expect(sink.inner.samples == expectedSamples(seed: 5, frames: 0..<4_410))
    }

    @Test func stopThreadEndsAWaitOnAFullDevice() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/a.mp3"), .init(frames: 100_000, seed: 1))
        let sink = try GatedSink(capacity: 100)
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        try engine.start()
        engine.send(.play(FilePath("/a.mp3"), from: .zero, ticket: 1))
        try waitUntil { sink.waitCount > 0 }
        engine.stopThread()
        #expect(sink.interruptedWaitCount >= 1)
    }
}

@Suite struct PacedAudioSinkTests {
    @Test func meetsTheContractPacedAndUnpaced() throws {
        try checkAudioSinkContract(PacedAudioSink(ALSAAudioSink(device: "null"), pacing: false))
        try checkAudioSinkContract(PacedAudioSink(ALSAAudioSink(device: "null"), pacing: true, lead: .milliseconds(20)))
    }

    @Test func aWaitForRoomEndsWhenTheInterruptIsReadable() throws {
        let notifier = try EventNotifier()
        defer { notifier.close() }
        notifier.notify()
        // A second of lead: the wait would last about that long without the interrupt.
        let sink = PacedAudioSink(ALSAAudioSink(device: "null"), pacing: true, lead: .seconds(1))
        try checkAudioSinkWaitIsInterruptible(sink, readableDescriptor: notifier.descriptor.rawValue, bufferedFrames: 88_200)
    }

    @Test func itTakesNoMoreThanTheLeadAheadOfRealTime() throws {
        let sink = PacedAudioSink(ALSAAudioSink(device: "null"), pacing: true, lead: .milliseconds(100))
        try sink.configure(AudioFormat(sampleRate: 44_100, channels: 2))
        let second = [Int16](repeating: 1, count: 88_200)
        let taken = try second.withUnsafeBufferPointer { try sink.write($0) }
        // 100 ms of 44.1 kHz (a little less if the clock moved on in between).
        #expect(taken > 4_000 && taken <= 4_410, "\(taken) frames")
        #expect(try second.withUnsafeBufferPointer { try sink.write($0) } < 100)
    }
}

@Suite(.serialized) struct ALSAAudioSinkWaitTests {
    @Test func aWaitOnTheNullDeviceReturnsAndTheInterruptIsSeen() throws {
        let notifier = try EventNotifier()
        defer { notifier.close() }
        let sink = ALSAAudioSink(device: "null")
        try sink.configure(AudioFormat(sampleRate: 44_100, channels: 2))
        // The null device always has room: the wait ends at once.
        #expect(try sink.waitUntilWritable(orReadable: notifier.descriptor.rawValue) == .writable)
        let period = [Int16](repeating: 1, count: 2 * 4_410)
        #expect(try period.withUnsafeBufferPointer { try sink.write($0) } == 4_410)
        sink.close()
    }
}

/// Polls `condition` every millisecond for up to 5 s (a hang guard, not a timing assertion).
/// Waits for `condition`; the 30 s deadline guards against a hang and is never what is measured.
func waitUntil(_ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(30)
    while !condition() {
        if Date() > deadline { throw DeviceError("timed out waiting") }
        usleep(1_000)
    }
}

/// The position the player saves (and resumes from when the stick comes back) is what the
/// listener heard, not what was written: the device's queue is subtracted.
@Suite struct AudioEngineHeardPositionTests {
    /// Reports with a device that holds 200 ms, against the same track on one that holds none.
    func progress(queued frames: Int) throws -> [Duration] {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/a.mp3"), .init(frames: 44_100, seed: 1))
        let sink = SimulatedAudioSink()
        sink.queuedFrames = frames
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        try engine.start()
        engine.send(.play(FilePath("/a.mp3"), from: .zero, ticket: 1))
        let reports = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        return reports.compactMap { if case .progress(1, let position) = $0 { position } else { nil } }
    }

    @Test func progressReportsLeaveOutWhatTheDeviceStillHolds() throws {
        let written = try progress(queued: 0)
        let heard = try progress(queued: 8_820)   // 200 ms not heard yet, as in a 200 ms buffer
        #expect(!written.isEmpty && heard.count == written.count)
        #expect(zip(written, heard).allSatisfy { $0.0 - $0.1 == .milliseconds(200) }, "written \(written), heard \(heard)")
    }

    @Test func aPacedSinkHoldsItsLeadUntilTheClockHasPlayedIt() throws {
        let paced = PacedAudioSink(SimulatedAudioSink(), pacing: true, lead: .milliseconds(100))
        try paced.configure(AudioFormat(sampleRate: 44_100, channels: 2))
        let second = [Int16](repeating: 1, count: 2 * 44_100)
        let taken = try second.withUnsafeBufferPointer { try paced.write($0) }
        #expect(taken == 4_410)
        // Paused, the clock stops: what is queued stays, however long the pause.
        try paced.setPaused(true)
        let held = paced.queuedFrames
        #expect(held > 0 && held <= 4_410)
        usleep(150_000)
        #expect(paced.queuedFrames == held)
        // Playing again, the clock plays it out.
        try paced.setPaused(false)
        try waitUntil { paced.queuedFrames == 0 }
    }
}
