import ShflCore
import ShflSimulated
import Testing

/// The `TrackDecoder` contract, for any adapter. `good` must decode to `expectedFrames` frames;
/// `missing` must not exist. Returns all decoded samples for adapter-specific checks.
@discardableResult
func checkTrackDecoderContract(_ decoder: some TrackDecoder, good: FilePath, expectedFrames: Int, missing: FilePath) throws -> [Int16] {
    do {
        _ = try decoder.open(missing)
        Issue.record("opening a missing file succeeded")
    } catch {
        #expect(error == .fileNotFound(missing))
        #expect(error.description.contains(missing.description))
    }

    let info = try decoder.open(good)
    #expect(info.format.channels >= 1 && info.format.sampleRate > 0)
    var all: [Int16] = []
    var buffer = [Int16](repeating: 0, count: 4_096)
    decoding: while true {
        let result = try buffer.withUnsafeMutableBufferPointer { try decoder.decode(into: $0) }
        switch result {
        case .decoded(let frames):
            #expect(frames * info.format.channels <= buffer.count)
            all.append(contentsOf: buffer[0..<(frames * info.format.channels)])
        case .formatChanged:
            continue
        case .endOfTrack:
            break decoding
        }
    }
    #expect(all.count == expectedFrames * info.format.channels)
    // Past the end it stays at the end.
    #expect(try buffer.withUnsafeMutableBufferPointer { try decoder.decode(into: $0) } == .endOfTrack)

    // Seeking repositions exactly.
    let middle = expectedFrames / 2
    try decoder.seek(toFrame: middle)
    var resumed: [Int16] = []
    if case .decoded(let frames) = try buffer.withUnsafeMutableBufferPointer({ try decoder.decode(into: $0) }) {
        resumed = Array(buffer[0..<(frames * info.format.channels)])
    }
    let offset = middle * info.format.channels
    #expect(!resumed.isEmpty)
    #expect(Array(all[offset..<min(all.count, offset + resumed.count)]) == resumed)
    decoder.close()
    return all
}

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
