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

@Suite struct AudioEngineBackOffTests {
    @Test func aVanishedDeviceIsRetriedWithBackOffNotInABusyLoop() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/t.mp3"), .init(frames: 44_100, seed: 1))
        let sink = SimulatedAudioSink()
        sink.persistentFailure = DeviceError("simulated: no such device", code: 19)
        let engine = try AudioEngine(decoder: decoder, sink: sink)
        try engine.start()
        engine.send(.play(FilePath("/t.mp3"), from: .zero, ticket: 1))
        let reports = try collectReports(from: engine, timeout: 1.6) { _ in false }
        // 0, 100, 300, 700, 1500 ms: five attempts in 1.6 s, not thousands.
        let attempts = sink.configureAttempts
        #expect(attempts >= 4 && attempts <= 6, "\(attempts) attempts in 1.6 s")
        #expect(reports.contains { if case .deviceFailed(let message) = $0 { message.contains("no such device") } else { false } })
        // The device comes back: playback continues without a new command.
        sink.persistentFailure = nil
        let resumed = try collectReports(from: engine, timeout: 6, until: isFinished(1))
        engine.stopThread()
        #expect(resumed.contains { $0 == .finished(ticket: 1) })
        #expect(sink.samples.count == 88_200)
    }
}
