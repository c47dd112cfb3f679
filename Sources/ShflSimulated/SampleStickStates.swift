import ShflCore

/// Stick states numbered by a serial, reproducible anywhere: the power-cut test's writer
/// process (`shfl state-writer`) saves them one after the other, and the test recomputes
/// them to check that a surviving file holds exactly one of them.
public enum SampleStickStates {
    public static let stick = StickID(uuid: "C0FF-EE00")

    /// State number `serial` (>= 0): 120 tracks in an order, cursor, position, volume and
    /// history that all depend on it, so consecutive states differ in content and length.
    public static func numbered(_ serial: Int64) -> StickState {
        var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: serial) &+ 1)
        var order = (0..<120).map { TrackPath("Album " + String($0 % 12) + "/Track " + String($0) + ".mp3") }
        order.shuffle(using: &generator)
        var history: [TrackPath: PlayRecord] = [:]
        let played = Int(serial % 120)
        for index in 0..<played {
            history[order[index]] = PlayRecord(playCount: 1 + generator.next(below: 9), lastPlayed: Int64(index + 1))
        }
        return StickState(
            stick: stick,
            order: order,
            cursor: played,
            position: .milliseconds(serial % 600_000),
            cycle: Int(serial / 120),
            generatorState: generator.next(),
            volume: Int(serial % 101),
            history: history,
            playSerial: serial
        )
    }
}
