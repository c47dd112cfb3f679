extension ConfigurationBuilder {
    /// The keys that must fit together, checked once the whole file is read (so the order of
    /// the lines does not matter). Each problem is reported at the later of the lines involved
    /// and says what the player uses instead.
    ///
    /// - Volume: minimum <= initial <= maximum, put in order as `VolumeSettings` does (a
    ///   maximum below the minimum is raised to it; the initial level is clamped).
    /// - period-time at most half of buffer-time (ALSA needs two periods in the buffer):
    ///   otherwise the default period, or a quarter of the buffer if that is shorter.
    /// - power-off-hold longer than capacity-hold: otherwise holding PLAY for the capacity
    ///   would power the player off first. Both are kept (it is a warning, not a guess).
    static func check(_ configuration: inout Configuration, file: String, origins: [String: Int]) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        func line(_ names: [String]) -> Int? {
            var latest: Int?
            for name in names { if let line = origins[name], line > (latest ?? 0) { latest = line } }
            return latest
        }

        let volume = configuration.player.volume
        let ordered = VolumeSettings(initial: volume.initial, minimum: volume.minimum, maximum: volume.maximum, step: volume.step)
        if ordered.maximum != volume.maximum {
            problems.append(ConfigurationProblem(
                .conflict, file: file, line: line(["[volume] minimum", "[volume] maximum"]), key: "[volume] maximum",
                "[volume] maximum " + String(volume.maximum) + " is below minimum " + String(volume.minimum)
                    + "; using " + String(ordered.maximum)))
        }
        if ordered.initial != volume.initial {
            problems.append(ConfigurationProblem(
                .conflict, file: file, line: line(["[volume] initial", "[volume] minimum", "[volume] maximum"]),
                key: "[volume] initial",
                "[volume] initial " + String(volume.initial) + " is outside minimum " + String(ordered.minimum)
                    + " to maximum " + String(ordered.maximum) + "; using " + String(ordered.initial)))
        }
        configuration.player.volume = ordered

        let audio = configuration.audio
        if audio.periodTime * 2 > audio.bufferTime {
            let fallback = AudioConfiguration().periodTime * 2 <= audio.bufferTime
                ? AudioConfiguration().periodTime : .microseconds(audio.bufferTime.nanoseconds / 4_000)
            let text = ConfigurationValue<Duration>.durationText
            problems.append(ConfigurationProblem(
                .conflict, file: file, line: line(["[audio] buffer-time", "[audio] period-time"]), key: "[audio] period-time",
                "[audio] period-time " + text(audio.periodTime) + " is more than half of buffer-time "
                    + text(audio.bufferTime) + "; using " + text(fallback)))
            configuration.audio.periodTime = fallback
        }

        let gestures = configuration.gestures
        if let powerOff = gestures.powerOffHold, powerOff <= gestures.capacityHold {
            let text = ConfigurationValue<Duration>.durationText
            problems.append(ConfigurationProblem(
                .conflict, file: file, line: line(["[buttons] power-off-hold", "[buttons] capacity-hold"]),
                key: "[buttons] power-off-hold",
                "[buttons] power-off-hold " + text(powerOff) + " is not longer than capacity-hold "
                    + text(gestures.capacityHold) + ": holding PLAY for the capacity powers the player off"))
        }
        return problems
    }
}
