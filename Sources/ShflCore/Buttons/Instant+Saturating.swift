extension Instant {
    /// `self + duration`, pinned to the ends of the timeline instead of trapping on overflow.
    /// The button code adds settle times and hold thresholds to timestamps it is given; a
    /// corrupt timestamp must not crash the player.
    func addingSaturating(_ duration: Duration) -> Instant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
        if !overflow { return Instant(nanoseconds: sum) }
        return Instant(nanoseconds: duration > .zero ? Int64.max : Int64.min)
    }
}
