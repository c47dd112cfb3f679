/// A gesture as `ButtonInput` recognised it: what, from which button, and the instant it was
/// recognised (a settled press or release, a hold threshold or a repeat; never the instant the
/// edges happened to be delivered).
public struct RecognizedGesture: Hashable, Sendable, CustomStringConvertible {
    public var gesture: Gesture
    public var button: Button
    public var time: Instant

    public init(_ gesture: Gesture, button: Button, time: Instant) {
        self.gesture = gesture
        self.button = button
        self.time = time
    }

    /// E.g. "announce capacity (PLAY) at 2020ms".
    public var description: String {
        gesture.description + " (" + button.description + ") at " + time.description
    }
}
