import ShflCore
import Testing

@Suite struct InstantTests {
    @Test func arithmeticWithDurations() {
        let start = Instant.milliseconds(1_000)
        #expect(start + .milliseconds(20) == .milliseconds(1_020))
        #expect((Instant.milliseconds(1_020) - start) == .milliseconds(20))
        #expect(Duration.milliseconds(1_500).milliseconds == 1_500)
    }

    @Test func millisecondsDescription() {
        #expect(Duration.milliseconds(20).millisecondsDescription == "20ms")
        #expect(Duration.microseconds(20_500).millisecondsDescription == "20.5ms")
        #expect(Duration.nanoseconds(-1_000_001).millisecondsDescription == "-1.000001ms")
        #expect(Instant.milliseconds(3).description == "3ms")
    }
}
