import ShflCore
import ShflSimulated
import ShflTestKit
import Testing

@Suite struct SimulatedTrackDecoderTests {
    @Test func meetsTheContract() throws {
        let decoder = SimulatedTrackDecoder()
        decoder.add(FilePath("/stick/a.mp3"), .init(frames: 10_000, seed: 3))
        let samples = try checkTrackDecoderContract(decoder, good: FilePath("/stick/a.mp3"), expectedFrames: 10_000, missing: FilePath("/stick/none.mp3"))
        #expect(samples[2 * 1234 + 1] == SimulatedTrackDecoder.sample(seed: 3, frame: 1234, channel: 1))
    }

    @Test func brokenFilesFailWithTheirError() throws {
        let decoder = SimulatedTrackDecoder()
        let broken = FilePath("/stick/broken.mp3")
        decoder.add(broken, .init(frames: 100, seed: 1, openFailure: .unsupportedFormat(broken, reason: "not MPEG audio")))
        #expect(throws: DecodeError.unsupportedFormat(broken, reason: "not MPEG audio")) { try decoder.open(broken) }

        let truncated = FilePath("/stick/truncated.mp3")
        decoder.add(truncated, .init(frames: 5_000, seed: 2, failsAfterFrame: 1_000))
        _ = try decoder.open(truncated)
        var buffer = [Int16](repeating: 0, count: 1_500)
        var frames = 0
        #expect(throws: DecodeError.self) {
            while true {
                if case .decoded(let count) = try buffer.withUnsafeMutableBufferPointer({ try decoder.decode(into: $0) }) { frames += count }
            }
        }
        #expect(frames == 1_000)
    }
}
