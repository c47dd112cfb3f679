import ShflCore
import ShflSimulated
import Testing

/// The `AudioSink` contract on a healthy device, for any adapter: every operation in a normal
/// session succeeds, in the order the audio thread uses them.
func checkAudioSinkContract(_ sink: some AudioSink) throws {
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

@Suite struct SimulatedAudioSinkTests {
    @Test func meetsTheContract() throws {
        let sink = SimulatedAudioSink()
        try checkAudioSinkContract(sink)
        #expect(sink.samplesWrittenWhilePaused == 0)
        #expect(sink.configurations.count == 3)
        #expect(sink.samples.count == 13 * 2 * 441)
    }

    @Test func recordsWritesWhilePausedAndInjectedFailures() throws {
        let sink = SimulatedAudioSink()
        try sink.configure(AudioFormat(sampleRate: 22_050, channels: 1))
        try sink.setPaused(true)
        try [Int16](repeating: 1, count: 10).withUnsafeBufferPointer { try sink.write($0) }
        #expect(sink.samplesWrittenWhilePaused == 10)
        sink.nextFailure = DeviceError("simulated: device unplugged", code: 19)
        #expect(throws: DeviceError("simulated: device unplugged", code: 19)) { try sink.drain() }
        try sink.drain()
    }

    @Test func rejectsPartialFramesAndWritesBeforeConfigure() {
        let sink = SimulatedAudioSink()
        #expect(throws: DeviceError.self) { try [Int16](repeating: 0, count: 4).withUnsafeBufferPointer { try sink.write($0) } }
        #expect(throws: DeviceError.self) {
            try sink.configure(AudioFormat(sampleRate: 44_100, channels: 2))
            try [Int16](repeating: 0, count: 3).withUnsafeBufferPointer { try sink.write($0) }
        }
    }
}
