import Foundation
@testable import ShflAudio
import ShflCore
import ShflSimulated
import ShflSystem
import Testing

@Suite struct OutputVolumeTests {
    @Test func theMixerCurveMatchesTheSoftwareGain() {
        #expect(ALSAMixerVolume.centibels(forLevel: 100) == 0)
        #expect(ALSAMixerVolume.centibels(forLevel: 50) == -1806)
        #expect(ALSAMixerVolume.centibels(forLevel: 10) == -6000)
        #expect(ALSAMixerVolume.centibels(forLevel: 0) == Int.min)
        var previous = Int.min
        for level in 1...100 {
            let value = ALSAMixerVolume.centibels(forLevel: level)
            #expect(value > previous, "level \(level)")
            previous = value
        }
    }

    @Test func devicesWithoutAMixerFallBackToSoftware() {
        #expect(ALSAMixerVolume(card: "null") == nil)
        #expect(ALSAMixerVolume(card: "hw:97") == nil)
    }

    @Test func softwareVolumeReachesTheAudioThread() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/t.mp3"), .init(frames: 44_100, seed: 1))
        let sink = SimulatedAudioSink()
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        let volume = SoftwareVolume(engine: engine)
        try volume.setLevel(0)
        try engine.start()
        engine.send(.play(FilePath("/t.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        #expect(sink.samples.count == 88_200)
        #expect(sink.samples.allSatisfy { $0 == 0 })
    }
}

/// A simulated device that records when each `configure` (open) was attempted, on the host's
/// monotonic clock: the back-off is read from these instants, not from a count in a window.
final class AttemptTimingSink: AudioSink {
    let inner = SimulatedAudioSink()
    private let lock = NSLock()
    private var instants: [ContinuousClock.Instant] = []

    var attempts: [ContinuousClock.Instant] { lock.withLock { instants } }
    var underruns: Int { inner.underruns }

    func configure(_ format: AudioFormat) throws(DeviceError) {
        lock.withLock { instants.append(.now) }
        try inner.configure(format)
    }
    func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int { try inner.write(samples) }
    func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp {
        try inner.waitUntilWritable(orReadable: interrupt)
    }
    func setPaused(_ paused: Bool) throws(DeviceError) -> Int { try inner.setPaused(paused) }
    func discard() throws(DeviceError) { try inner.discard() }
    func drain() throws(DeviceError) { try inner.drain() }
}

@Suite struct AudioEngineBackOffTests {
    @Test func aVanishedDeviceIsRetriedWithBackOffNotInABusyLoop() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/t.mp3"), .init(frames: 44_100, seed: 1))
        let sink = AttemptTimingSink()
        sink.inner.persistentFailure = DeviceError("simulated: no such device", code: 19)
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        try engine.start()
        engine.send(.play(FilePath("/t.mp3"), from: .zero, ticket: 1))
        let reports = try collectReports(from: engine) { _ in sink.attempts.count >= 5 }
        #expect(reports.contains { if case .deviceFailed(let message) = $0 { message.contains("no such device") } else { false } })
        // The waits between attempts double from 100 ms (a busy loop would retry at once).
        // Only lower bounds: a loaded machine makes the waits longer, never shorter.
        let attempts = sink.attempts
        let waits = zip(attempts, attempts.dropFirst()).map { pair in pair.1 - pair.0 }
        for (index, wait) in waits.prefix(4).enumerated() {
            let planned = Duration.milliseconds(100 << index)
            #expect(wait >= planned * 0.9, "attempt \(index + 2) came \(wait) after the one before (planned \(planned))")
        }
        // The device comes back: playback continues without a new command.
        sink.inner.persistentFailure = nil
        let resumed = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        #expect(resumed.contains { $0 == .finished(ticket: 1) })
        #expect(sink.inner.samples.count == 88_200)
    }
}
