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
        try period.withUnsafeBufferPointer { try sink.writeAll($0, channels: 2) }
    }
    try sink.setPaused(true)
    try sink.setPaused(false)
    // A write takes whole frames, at most all of them, and never waits.
    let taken = try period.withUnsafeBufferPointer { try sink.write($0) }
    #expect(taken >= 0 && taken <= 441)
    try sink.discard()
    // Same format again: the stream keeps running (gapless).
    try sink.configure(stereo)
    try period.withUnsafeBufferPointer { try sink.writeAll($0, channels: 2) }
    // Another rate: the device is reconfigured.
    try sink.configure(AudioFormat(sampleRate: 48_000, channels: 2))
    try period.withUnsafeBufferPointer { try sink.writeAll($0, channels: 2) }
    try sink.drain()
    // Audio written without a gap, paused and resumed by the rules, is no underrun: a counter
    // that counts one here would light up `shfl status` for a listener who heard nothing wrong.
    #expect(sink.underruns == 0, "a session without a gap counted \(sink.underruns) underruns")
}

/// A wait for room on a device that is full ends when the interrupt descriptor is readable
/// (`interrupt` must be readable when this is called), and not much later than the audio
/// queued plays: the audio thread handles commands while it waits. For adapters that pace in
/// real time (`bufferedFrames` is more than the device holds, so it fills up).
public func checkAudioSinkWaitIsInterruptible(_ sink: some AudioSink, readableDescriptor interrupt: Int32, bufferedFrames: Int) throws {
    let stereo = AudioFormat(sampleRate: 44_100, channels: 2)
    try sink.configure(stereo)
    let chunk = [Int16](repeating: 100, count: 2 * 441)
    var queued = 0
    var full = false
    while queued < bufferedFrames && !full {
        let frames = try chunk.withUnsafeBufferPointer { try sink.write($0) }
        queued += frames
        full = frames < 441
    }
    #expect(full, "the device took \(queued) frames without filling up")
    #expect(try sink.waitUntilWritable(orReadable: interrupt) == .interrupted)
    try sink.discard()
}
