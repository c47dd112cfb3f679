import ShflCore
import ShflSimulated
import ShflTestKit
import Testing

@Suite struct StatusLightConformanceTests {
    @Test func simulatedStatusLightKeepsTheContract() throws {
        let clock = ManualClock()
        let light = SimulatedStatusLight(clock: clock)
        try checkStatusLightContract(light) { light.isLit }
    }

    @Test func traceRecordsChangesAtTheClocksInstants() throws {
        let clock = ManualClock(now: .milliseconds(1_000))
        let light = SimulatedStatusLight(clock: clock)
        #expect(!light.isLit)
        #expect(light.renderedTrace == "(no changes)")
        try light.setLit(false)  // the level before the first set is unknown: recorded
        clock.advance(by: .milliseconds(250))
        try light.setLit(true)
        clock.advance(by: .milliseconds(10))
        try light.setLit(true)  // no change: not recorded
        clock.advance(by: .milliseconds(90))
        try light.setLit(false)
        #expect(light.trace == [
            LightChange(at: .milliseconds(1_000), lit: false),
            LightChange(at: .milliseconds(1_250), lit: true),
            LightChange(at: .milliseconds(1_350), lit: false),
        ])
        #expect(light.setCount == 4)
        #expect(light.renderedTrace == "off@1000ms on@1250ms off@1350ms")
        #expect(light.trace(from: .milliseconds(1_300)) == [
            LightChange(at: .milliseconds(1_300), lit: true),
            LightChange(at: .milliseconds(1_350), lit: false),
        ])
    }

    @Test func clearTraceKeepsTheCurrentLevel() throws {
        let clock = ManualClock()
        let light = SimulatedStatusLight(clock: clock)
        try light.setLit(true)
        clock.advance(by: .milliseconds(500))
        light.clearTrace()
        #expect(light.trace == [LightChange(at: .milliseconds(500), lit: true)])
        try light.setLit(true)
        #expect(light.trace.count == 1)
    }

    @Test func aFailingLineThrowsAndChangesNothing() throws {
        let light = SimulatedStatusLight(clock: ManualClock())
        try light.setLit(true)
        light.failure = DeviceError("LED line gone", code: 19)
        #expect(throws: DeviceError("LED line gone", code: 19)) { try light.setLit(false) }
        #expect(light.isLit)
        #expect(light.trace.count == 1)
        light.failure = nil
        try light.setLit(false)
        #expect(!light.isLit)
    }
}
