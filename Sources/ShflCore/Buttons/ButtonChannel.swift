/// One wired button inside `ButtonInput`: its debouncer feeding its gesture tracker, run
/// through time in order. Buttons are independent, so each channel runs on its own.
struct ButtonChannel: Sendable {
    var debouncer: Debouncer
    var tracker: GestureTracker

    init(button: Button, level: ButtonLevel, settings: GestureSettings) {
        debouncer = Debouncer(button: button, level: level, settleTime: settings.settleTime)
        tracker = GestureTracker(
            button: button, binding: settings.binding(for: button), initialLevel: level)
    }

    var button: Button { debouncer.button }

    /// The earlier of the next sample and the next hold threshold or repeat.
    var nextDeadline: Instant? {
        switch (debouncer.nextDeadline, tracker.nextDeadline) {
        case (let sample?, let gesture?): sample < gesture ? sample : gesture
        case (let sample?, nil): sample
        case (nil, let gesture): gesture
        }
    }

    /// Processes `edges` (this button's, in time order, none later than `end`) and every
    /// deadline up to and including `end`, in time order. At equal instants a hold or repeat
    /// comes first (the settled level is still the old one), then a sample, then an edge.
    mutating func run(
        _ edges: [ButtonEdge], upTo end: Instant,
        gestures: inout [RecognizedGesture], levelChanges: inout [SettledLevelChange]
    ) {
        var next = 0
        while true {
            let edgeTime: Instant? = next < edges.count ? edges[next].time : nil
            let sampleTime = debouncer.nextDeadline
            if let due = tracker.nextDeadline, due <= end,
                edgeTime.map({ due <= $0 }) ?? true, sampleTime.map({ due <= $0 }) ?? true
            {
                // Every fire moves the tracker's deadline strictly later or clears it.
                if let gesture = tracker.fireDeadline(at: due) { gestures.append(gesture) }
                continue
            }
            if let due = sampleTime, due <= end, edgeTime.map({ due <= $0 }) ?? true {
                // The sample clears the debouncer's deadline.
                if let change = debouncer.advance(to: due) {
                    levelChanges.append(change)
                    if let gesture = tracker.settled(change.level, at: change.time) {
                        gestures.append(gesture)
                    }
                }
                continue
            }
            if let edgeTime {
                // No sample is due at or before `edgeTime` any more, so this returns nil.
                _ = debouncer.record(edges[next].level, at: edgeTime)
                next += 1
                continue
            }
            break
        }
        _ = debouncer.advance(to: end)  // nothing is due; only notes how far time has come
    }
}
