import Foundation
import ShflAudio
import ShflCore
import ShflSystem
import ShflTestKit
import Testing

/// An `AudioSink` decorator that takes as long as the audio it writes would play, like a
/// real device (the ALSA `file` and `null` plugins accept data instantly). Records whether
/// anything was written while paused.
final class PacedSink<Inner: AudioSink>: AudioSink {
    let inner: Inner
    private var rate = 44_100
    private var channels = 2
    private var paused = false
    private(set) var framesWrittenWhilePaused = 0

    init(_ inner: Inner) { self.inner = inner }

    var underruns: Int { inner.underruns }

    func configure(_ format: AudioFormat) throws(DeviceError) {
        rate = format.sampleRate
        channels = format.channels
        try inner.configure(format)
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int {
        let frames = try inner.write(samples)
        if paused { framesWrittenWhilePaused += frames }
        usleep(UInt32(frames * 1_000_000 / rate))
        return frames
    }

    func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp {
        try inner.waitUntilWritable(orReadable: interrupt)
    }

    func setPaused(_ paused: Bool) throws(DeviceError) -> Int {
        self.paused = paused
        return try inner.setPaused(paused)
    }

    func discard() throws(DeviceError) { try inner.discard() }
    func drain() throws(DeviceError) { try inner.drain() }
}

/// Thrown when an engine's expected report does not come before the hang guard's deadline.
struct AudioReportTimeout: Error, CustomStringConvertible {
    var description: String
}

/// Waits for reports from an engine until `done` says so; throws (failing the test, with what
/// did come) if `timeout` seconds pass first. The timeout guards against a hang: it is never
/// what a test measures, so it is generous.
func collectReports<D, S>(from engine: AudioEngine<D, S>, timeout: Double = 30, until done: ([AudioReport]) -> Bool) throws -> [AudioReport] {
    var all: [AudioReport] = []
    var poller = Poller()
    poller.watch(engine.reportDescriptor)
    let deadline = Date().addingTimeInterval(timeout)
    while !done(all) {
        let left = deadline.timeIntervalSinceNow
        if left <= 0 {
            throw AudioReportTimeout(description: "the expected audio report did not come within \(timeout) s; reports: \(all)")
        }
        _ = try poller.wait(timeoutMilliseconds: Int32(min(left, 0.05) * 1_000))
        all += engine.takeReports()
    }
    return all
}

/// The reports that come during `seconds` of real time: a stimulus's timing (let a grace period
/// pass), never what a test asserts on.
func reportsDuring<D, S>(_ seconds: Double, from engine: AudioEngine<D, S>) throws -> [AudioReport] {
    var all: [AudioReport] = []
    var poller = Poller()
    poller.watch(engine.reportDescriptor)
    let end = Date().addingTimeInterval(seconds)
    while case let left = end.timeIntervalSinceNow, left > 0 {
        _ = try poller.wait(timeoutMilliseconds: Int32(min(left, 0.05) * 1_000))
        all += engine.takeReports()
    }
    return all + engine.takeReports()
}

/// A progress report of `ticket` at or past `position`: the audio written has reached it.
func hasProgressed(_ ticket: Int, to position: Duration) -> ([AudioReport]) -> Bool {
    { reports in reports.contains { if case .progress(ticket, let reached) = $0 { reached >= position } else { false } } }
}

func isFinished(_ ticket: Int) -> ([AudioReport]) -> Bool {
    { reports in reports.contains { if case .finished(ticket) = $0 { true } else if case .failed(ticket, _) = $0 { true } else { false } } }
}

func readSamples(_ path: String) throws -> [Int16] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
}

func firstDifference(_ a: [Int16], _ b: [Int16]) -> Int? {
    if let index = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset { return index }
    return a.count == b.count ? nil : min(a.count, b.count)
}

func captureFile(_ name: String) -> String {
    NSTemporaryDirectory() + "shfl-capture-\(getpid())-\(name).raw"
}

@Suite(.serialized) struct ALSAAudioSinkTests {
    @Test func meetsTheAudioSinkContractOnTheNullDevice() throws {
        let sink = ALSAAudioSink(device: "null")
        try checkAudioSinkContract(sink)
        sink.close()
    }

    @Test func aMissingDeviceFailsWithItsName() {
        let sink = ALSAAudioSink(device: "hw:97")
        #expect(throws: DeviceError.self) { try sink.configure(AudioFormat(sampleRate: 44_100, channels: 2)) }
        do {
            try sink.configure(AudioFormat(sampleRate: 44_100, channels: 2))
        } catch {
            #expect(error.description.contains("ALSA hw:97: cannot open"))
        }
    }

    @Test(arguments: ["stereo44", "stereo48", "mono22", "vbr", "id3v24"])
    func playsBitExactlyThroughTheFilePlugin(name: String) throws {
        let capture = captureFile(name)
        defer { unlink(capture) }
        let sink = ALSAAudioSink(device: "file:'" + capture + "',raw")
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.play(try AudioFixtures.path(name + ".mp3"), from: .zero, ticket: 1))
        let reports = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        sink.close()
        #expect(reports.contains { if case .started(1, _) = $0 { true } else { false } })
        #expect(reports.contains { $0 == .finished(ticket: 1) })
        let captured = try readSamples(capture)
        let difference = firstDifference(captured, try AudioFixtures.reference(name))
        #expect(difference == nil, "\(name): captured audio differs from mpg123 -s at sample \(difference ?? -1) (\(captured.count) samples)")
    }

    @Test func consecutiveTracksPlayGaplessly() throws {
        let capture = captureFile("gapless")
        defer { unlink(capture) }
        let sink = ALSAAudioSink(device: "file:'" + capture + "',raw")
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.play(try AudioFixtures.path("gapless-a.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine, until: isFinished(1))
        engine.send(.play(try AudioFixtures.path("gapless-b.mp3"), from: .zero, ticket: 2))
        _ = try collectReports(from: engine, until: isFinished(2))
        engine.stopThread()
        sink.close()
        let captured = try readSamples(capture)
        let difference = firstDifference(captured, try AudioFixtures.reference("gapless-ab"))
        #expect(difference == nil, "A then B differs from mpg123 -s A B at sample \(difference ?? -1) of \(captured.count)")
    }

    @Test func aBrokenTrackIsReportedAndTheNextOnePlays() throws {
        let capture = captureFile("broken")
        defer { unlink(capture) }
        let sink = ALSAAudioSink(device: "file:'" + capture + "',raw")
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.play(try AudioFixtures.path("random.mp3"), from: .zero, ticket: 1))
        let failed = try collectReports(from: engine, until: isFinished(1))
        #expect(failed.contains { if case .failed(1, let reason) = $0 { reason.contains("random.mp3") } else { false } })
        engine.send(.play(try AudioFixtures.path("stereo48.mp3"), from: .zero, ticket: 2))
        let reports = try collectReports(from: engine, until: isFinished(2))
        engine.stopThread()
        sink.close()
        #expect(reports.contains { $0 == .finished(ticket: 2) })
        #expect(firstDifference(try readSamples(capture), try AudioFixtures.reference("stereo48")) == nil)
    }

    @Test func pauseAndResumeContinueExactlyWhereThePauseStopped() throws {
        let capture = captureFile("pause")
        defer { unlink(capture) }
        let sink = PacedSink(ALSAAudioSink(device: "file:'" + capture + "',raw"))
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.play(try AudioFixtures.path("stereo44.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine, until: hasProgressed(1, to: .milliseconds(250)))
        engine.send(.pause)
        // The pause reports where it stopped; then a stretch of real time with the engine
        // paused (the paced sink would have written it all), then the resume.
        let paused = try collectReports(from: engine) { $0.contains { if case .progress = $0 { true } else { false } } }
        usleep(300_000)
        engine.send(.resume)
        let reports = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        sink.inner.close()
        #expect(!paused.isEmpty)
        #expect(sink.framesWrittenWhilePaused == 0)
        #expect(reports.contains { $0 == .finished(ticket: 1) })
        let difference = firstDifference(try readSamples(capture), try AudioFixtures.reference("stereo44"))
        #expect(difference == nil, "audio after the pause differs at sample \(difference ?? -1)")
    }

    @Test func skipCutsTheTrackAndPlaysTheNextWhole() throws {
        let capture = captureFile("skip")
        defer { unlink(capture) }
        let sink = PacedSink(ALSAAudioSink(device: "file:'" + capture + "',raw"))
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.play(try AudioFixtures.path("stereo44.mp3"), from: .zero, ticket: 1))
        let before = try collectReports(from: engine, until: hasProgressed(1, to: .milliseconds(250)))
        engine.send(.play(try AudioFixtures.path("gapless-b.mp3"), from: .zero, ticket: 2))
        let reports = try collectReports(from: engine, until: isFinished(2))
        engine.stopThread()
        sink.inner.close()
        #expect(!reports.contains { $0 == .finished(ticket: 1) })
        let captured = try readSamples(capture)
        let next = try AudioFixtures.reference("gapless-b")
        let first = try AudioFixtures.reference("stereo44")
        let cut = captured.count - next.count
        #expect(cut > 0 && cut < first.count, "cut at \(cut) samples")
        #expect(firstDifference(Array(captured[0..<max(cut, 0)]), Array(first[0..<max(min(cut, first.count), 0)])) == nil)
        #expect(firstDifference(Array(captured[max(cut, 0)...]), next) == nil)
        // Cut after what had been written when SKIP was sent, and before the track's end; how
        // soon after is a latency, measured by bench/button-latency.py, not asserted here.
        let reached = before.compactMap { if case .progress(1, let position) = $0 { position } else { nil } }.max() ?? .zero
        let cutMilliseconds = cut / 2 * 1_000 / 44_100
        #expect(Duration.milliseconds(cutMilliseconds + 1) >= reached && cut < first.count,
                "cut after \(cutMilliseconds) ms; \(reached) had been written when SKIP was sent")
    }

    @Test func resumingAtAPositionStartsThere() throws {
        let capture = captureFile("resume")
        defer { unlink(capture) }
        let sink = ALSAAudioSink(device: "file:'" + capture + "',raw")
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.play(try AudioFixtures.path("vbr.mp3"), from: .milliseconds(1_500), ticket: 7))
        _ = try collectReports(from: engine, until: isFinished(7))
        engine.stopThread()
        sink.close()
        let reference = try AudioFixtures.reference("vbr")
        let start = 2 * 66_150
        #expect(firstDifference(try readSamples(capture), Array(reference[start...])) == nil)
    }

    @Test func volumeScalesTheSamples() throws {
        let capture = captureFile("volume")
        defer { unlink(capture) }
        let sink = ALSAAudioSink(device: "file:'" + capture + "',raw")
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.setVolume(50))
        engine.send(.play(try AudioFixtures.path("stereo48.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine, until: isFinished(1))
        engine.stopThread()
        sink.close()
        let captured = try readSamples(capture)
        let reference = try AudioFixtures.reference("stereo48")
        #expect(captured.count == reference.count)
        let peak = captured.map { abs(Int($0)) }.max() ?? 0
        let referencePeak = reference.map { abs(Int($0)) }.max() ?? 0
        #expect(abs(peak - referencePeak / 8) <= 2, "volume 50 peak \(peak), full \(referencePeak)")
    }
}

@Suite(.serialized) struct ALSAWavFileTests {
    /// The demo's WAV without a sound card holds the whole session, not only the audio since
    /// the last change of sample rate (alsa-lib's file plugin truncates the file when it is
    /// opened again).
    @Test func theDemoWavHoldsTracksOfDifferentRates() throws {
        let path = NSTemporaryDirectory() + "shfl-wav-\(getpid()).wav"
        defer { unlink(path) }
        let sink = ALSAAudioSink(device: ALSAAudioSink.wavFile(path: path))
        let engine = try AudioEngine(decoder: try Mpg123Decoder(), sink: sink)
        try engine.start()
        engine.send(.play(try AudioFixtures.path("stereo44.mp3"), from: .zero, ticket: 1))
        _ = try collectReports(from: engine, until: isFinished(1))
        engine.send(.play(try AudioFixtures.path("stereo48.mp3"), from: .zero, ticket: 2))
        _ = try collectReports(from: engine, until: isFinished(2))
        engine.send(.play(try AudioFixtures.path("mono22.mp3"), from: .zero, ticket: 3))
        _ = try collectReports(from: engine, until: isFinished(3))
        engine.stopThread()
        try sink.drain()
        sink.close()

        let wav = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(wav[at]) | Int(wav[at + 1]) << 8 | Int(wav[at + 2]) << 16 | Int(wav[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(wav[at]) | Int(wav[at + 1]) << 8 }
        try #require(wav.count > 44)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(u32(4) == wav.count - 8, "RIFF length")
        let channels = u16(22), rate = u32(24), bits = u16(34)
        #expect(channels == 2 && rate == 44_100 && bits == 16, "one format for the whole session: \(channels) ch \(rate) Hz \(bits) bit")
        #expect(Array(wav[36..<40]) == Array("data".utf8))
        #expect(u32(40) == wav.count - 44, "data length")
        // Every track, converted to the file's format: at least what the three last.
        var seconds = 0.0
        for (name, trackRate, trackChannels) in [("stereo44", 44_100.0, 2.0), ("stereo48", 48_000.0, 2.0), ("mono22", 22_050.0, 1.0)] {
            seconds += Double(try AudioFixtures.reference(name).count) / trackChannels / trackRate
        }
        let written = Double(wav.count - 44) / 4 / 44_100
        #expect(written >= seconds * 0.999, "the WAV holds \(written) s of \(seconds) s played")
    }
}
