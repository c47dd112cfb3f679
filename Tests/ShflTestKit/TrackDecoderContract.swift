import ShflCore
import ShflSimulated
import Testing

/// The `TrackDecoder` contract, for any adapter. `good` must decode to `expectedFrames` frames;
/// `missing` must not exist. Returns all decoded samples for adapter-specific checks.
@discardableResult
public func checkTrackDecoderContract(_ decoder: some TrackDecoder, good: FilePath, expectedFrames: Int, missing: FilePath) throws -> [Int16] {
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
