import Foundation
import ShflAudio
import ShflCore
import ShflSimulated
import ShflSystem
import Testing

/// The device playing out what it holds (the end of the last track, a change of format) never
/// holds a command: with 2 s queued in the device, a play is handled at once.
@Suite(.serialized) struct AudioEnginePlayOutTests {
    /// A device with a 2 s buffer: playing it out takes up to 2 s.
    func makeEngine() throws -> (AudioEngine<Mpg123Decoder, PacedAudioSink<SimulatedAudioSink>>, PacedAudioSink<SimulatedAudioSink>) {
        let sink = PacedAudioSink(SimulatedAudioSink(), pacing: true, lead: .seconds(2))
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        return (engine, sink)
    }

    func isStarted(_ ticket: Int) -> ([AudioReport]) -> Bool {
        { reports in reports.contains { if case .started(ticket, _) = $0 { true } else { false } } }
    }

    @Test func aPlayWhileTheLastTrackPlaysOutIsHandledAtOnce() throws {
        let (engine, sink) = try makeEngine()
        engine.send(.play(try AudioFixtures.path("stereo44.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine, until: isFinished(1))
        // Past the 250 ms grace for a next track: the device plays out the 2 s it holds.
        _ = try reportsDuring(0.5, from: engine)
        let sent = ContinuousClock.now
        engine.send(.play(try AudioFixtures.path("gapless-a.mp3"), from: .zero, ticket: 2))
        let reports = try collectReports(from: engine, until: isStarted(2))
        let latency = ContinuousClock.now - sent
        engine.stopThread()
        #expect(isStarted(2)(reports))
        // Waiting for the play-out took 1.5 s (the rest of the 2 s queue); at once is a few ms.
        // The bound sits between the two, far from both, for a loaded machine.
        #expect(latency < .seconds(1), "the play waited \(latency) for the device to play out")
        // Nothing lost: the next track follows the whole of the first.
        let first = try AudioFixtures.reference("stereo44")
        #expect(sink.inner.samples.count >= first.count && Array(sink.inner.samples[0..<first.count]) == first)
    }

    @Test func aSkipDuringAChangeOfFormatIsHandledAtOnce() throws {
        let (engine, sink) = try makeEngine()
        engine.send(.play(try AudioFixtures.path("stereo44.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine, until: isFinished(1))
        // 48 kHz after 44.1 kHz: the device plays out its 2 s of 44.1 kHz before it changes.
        engine.send(.play(try AudioFixtures.path("stereo48.mp3"), from: .zero, ticket: 2))
        _ = try reportsDuring(0.3, from: engine)
        let sent = ContinuousClock.now
        engine.send(.play(try AudioFixtures.path("gapless-a.mp3"), from: .zero, ticket: 3))
        let reports = try collectReports(from: engine, until: isStarted(3))
        let latency = ContinuousClock.now - sent
        engine.stopThread()
        #expect(isStarted(3)(reports))
        #expect(!reports.contains { if case .started(2, _) = $0 { true } else { false } }, "the 48 kHz track was skipped before it began")
        #expect(latency < .seconds(1), "the skip waited \(latency) for the change of format (1.7 s when it did)")
        #expect(sink.inner.configurations.allSatisfy { $0.sampleRate == 44_100 })
    }
}
