extension LightSchedule {
    /// What a perfectly punctual event loop would do with this schedule from `start` until
    /// just before `end`: the level it sets at `start`, then every change, each at its exact
    /// instant. For tests (compare with `SimulatedStatusLight.trace`) and the demo.
    ///
    /// The schedule is taken as it is: events (a new state, a press) are the caller's, who
    /// runs one timeline per stretch between events.
    public func timeline(from start: Instant, until end: Instant) -> [LightChange] {
        guard start < end else { return [] }
        var changes = [LightChange(at: start, lit: isLit(at: start))]
        var cursor = start
        while let next = nextChange(after: cursor), next < end {
            changes.append(LightChange(at: next, lit: isLit(at: next)))
            cursor = next
        }
        return changes
    }
}
