/// A LED pattern as data: a list of lit/dark steps that either repeats forever or plays once.
///
/// A pattern knows nothing about absolute time: its functions take an offset from the instant
/// it started, and `LightSchedule` turns offsets into instants. The exact patterns the player
/// shows are in `LightPatterns`.
///
/// The steps are normalised when the pattern is made: steps not longer than zero are dropped
/// and neighbouring steps of the same level are merged, so every step boundary inside one pass
/// is a real change of level. A pattern with no steps left is dark forever.
public struct LightPattern: Hashable, Sendable, CustomStringConvertible {
    /// What the pattern looks like ("slow blink", "capacity 47"), for logs and test messages.
    public let name: String
    /// The normalised steps of one pass.
    public let steps: [LightStep]
    /// `true`: the steps repeat forever. `false`: they play once, and the LED then keeps the
    /// level of the last step (when shown as an overlay, the overlay simply ends).
    public let repeats: Bool
    /// Where each step ends, in nanoseconds from the start of the pass.
    private let stepEnds: [Int64]

    /// A pattern from its steps; see the type's comment for how they are normalised.
    public init(_ name: String, repeats: Bool, steps: [LightStep]) {
        var merged: [LightStep] = []
        for step in steps where step.duration > .zero {
            if let last = merged.last, last.lit == step.lit {
                merged[merged.count - 1].duration = last.duration + step.duration
            } else {
                merged.append(step)
            }
        }
        var ends: [Int64] = []
        var total: Int64 = 0
        for step in merged {
            total += step.duration.nanoseconds
            ends.append(total)
        }
        self.name = name
        self.steps = merged
        self.repeats = repeats
        self.stepEnds = ends
    }

    /// The LED held at one level forever.
    public static func steady(_ name: String, lit: Bool) -> LightPattern {
        LightPattern(name, repeats: true, steps: [LightStep(lit: lit, duration: .seconds(1))])
    }

    /// The length of one pass (for a repeating pattern, its period).
    public var duration: Duration {
        .nanoseconds(stepEnds.last ?? 0)
    }

    /// How long the LED is lit during one pass.
    public var litDuration: Duration {
        var lit = Duration.zero
        for step in steps where step.lit {
            lit += step.duration
        }
        return lit
    }

    /// `true` when the level never changes (steady on, steady off, or no steps).
    public var isSteady: Bool {
        guard let first = steps.first else { return true }
        for step in steps where step.lit != first.lit {
            return false
        }
        return true
    }

    /// Whether the LED is lit `offset` after the pattern started. Offsets before the start
    /// answer as the start; a pattern played once keeps its last level after its end.
    public func isLit(atOffset offset: Duration) -> Bool {
        guard let last = steps.last else { return false }
        let position = positionInPass(offset.nanoseconds)
        guard let index = stepIndex(at: position.intoPass) else { return last.lit }
        return steps[index].lit
    }

    /// The first offset after `offset` at which the level changes, or nil if it never changes
    /// again (a steady pattern, or a pattern played once that has no change left).
    public func nextChange(afterOffset offset: Duration) -> Duration? {
        let position = positionInPass(offset.nanoseconds)
        guard let index = stepIndex(at: position.intoPass) else { return nil }
        let level = steps[index].lit
        // Without repetition the search ends with the pass; with it, one full turn round the
        // steps finds a change if there is any.
        let limit = repeats ? index + steps.count : steps.count - 1
        var candidate = index + 1
        while candidate <= limit {
            let wrapped = candidate % steps.count
            if steps[wrapped].lit != level {
                let turns = Int64(candidate / steps.count)
                let start = wrapped == 0 ? 0 : stepEnds[wrapped - 1]
                return .nanoseconds(position.passStart + turns * period + start)
            }
            candidate += 1
        }
        return nil
    }

    /// "slow blink: off 1000ms, on 1000ms, repeating".
    public var description: String {
        var text = name + ":"
        for (index, step) in steps.enumerated() {
            text += (index == 0 ? " " : ", ") + step.description
        }
        return text + (repeats ? ", repeating" : ", once")
    }

    /// One pass in nanoseconds (0 when there are no steps).
    private var period: Int64 {
        stepEnds.last ?? 0
    }

    /// Splits an offset into the start of its pass and the position inside it. Offsets before
    /// the start count as the start; a pattern played once has only the one pass, so positions
    /// past its end stay past its end.
    private func positionInPass(_ offset: Int64) -> (passStart: Int64, intoPass: Int64) {
        let clamped = offset < 0 ? 0 : offset
        guard repeats, period > 0 else { return (0, clamped) }
        let intoPass = clamped % period
        return (clamped - intoPass, intoPass)
    }

    /// The step that covers `position` (nanoseconds into a pass), or nil past the last step.
    private func stepIndex(at position: Int64) -> Int? {
        for (index, end) in stepEnds.enumerated() where position < end {
            return index
        }
        return nil
    }
}
