import ShflCore
import ShflSimulated
import ShflTestKit
import Testing

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
