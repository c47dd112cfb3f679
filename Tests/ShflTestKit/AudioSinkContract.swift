import ShflCore
import ShflSimulated
import Testing

/// The `AudioSink` contract on a healthy device, for any adapter: every operation in a normal
/// session succeeds, in the order the audio thread uses them.
public func checkAudioSinkContract(_ sink: some AudioSink) throws {
    let stereo = AudioFormat(sampleRate: 44_100, channels: 2)
    try sink.configure(stereo)
    let period = [Int16](repeating: 100, count: 2 * 441)
    for _ in 0..<10 {
        try period.withUnsafeBufferPointer { try sink.write($0) }
    }
    try sink.setPaused(true)
    try sink.setPaused(false)
    try period.withUnsafeBufferPointer { try sink.write($0) }
    try sink.discard()
    // Same format again: the stream keeps running (gapless).
    try sink.configure(stereo)
    try period.withUnsafeBufferPointer { try sink.write($0) }
    // Another rate: the device is reconfigured.
    try sink.configure(AudioFormat(sampleRate: 48_000, channels: 2))
    try period.withUnsafeBufferPointer { try sink.write($0) }
    try sink.drain()
    #expect(sink.underruns >= 0)
}
