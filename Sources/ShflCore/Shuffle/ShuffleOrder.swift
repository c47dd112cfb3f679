/// The play order of a stick's tracks (SPEC §3): an unbiased Fisher–Yates permutation from a
/// seeded generator, walked forward only. Every track plays once per cycle; the next cycle is
/// a fresh permutation whose first track is never the previous cycle's last.
///
/// Tracks are indices `0..<trackCount` into the caller's track list. The whole value (order,
/// cursor, cycle, generator) is what a resume needs to continue the same shuffle.
public struct ShuffleOrder: Hashable, Sendable {
    /// The current cycle: a permutation of `0..<trackCount`.
    public private(set) var order: [Int]
    /// Index in `order` of the current track.
    public private(set) var cursor: Int
    /// Completed cycles.
    public private(set) var cycle: Int
    /// The generator that will make the next permutation.
    public private(set) var generator: SeededGenerator

    public var trackCount: Int { order.count }

    /// A fresh shuffle of `trackCount` tracks, positioned on the first track of the order.
    public init(trackCount: Int, generator: SeededGenerator) {
        var generator = generator
        self.order = ShuffleOrder.permutation(count: trackCount, using: &generator)
        self.cursor = 0
        self.cycle = 0
        self.generator = generator
    }

    /// A shuffle restored from saved values; nil unless `order` is a permutation of
    /// `0..<order.count` and `cursor` lies inside it (or both are empty).
    public init?(order: [Int], cursor: Int, cycle: Int, generator: SeededGenerator) {
        guard cycle >= 0, ShuffleOrder.isPermutation(order) else { return nil }
        guard (order.isEmpty && cursor == 0) || order.indices.contains(cursor) else { return nil }
        self.order = order
        self.cursor = cursor
        self.cycle = cycle
        self.generator = generator
    }

    /// The current track, nil when there are no tracks.
    public var current: Int? {
        order.indices.contains(cursor) ? order[cursor] : nil
    }

    /// Moves to the next track, never back. At the end of a cycle, starts a new permutation
    /// whose first track differs from the track just played (when there are two or more).
    public mutating func advance() {
        guard !order.isEmpty else { return }
        if cursor + 1 < order.count {
            cursor += 1
            return
        }
        let last = order[cursor]
        order = ShuffleOrder.permutation(count: order.count, avoidingFirst: last, using: &generator)
        cursor = 0
        cycle += 1
    }

    /// The track `advance()` would move to, without moving.
    public var upcoming: Int? {
        var copy = self
        copy.advance()
        return copy.current
    }

    /// Throws the current cycle away and starts a new permutation now (the SKIP-hold gesture),
    /// whose first track is not the current one.
    public mutating func reshuffle() {
        guard let current else { return }
        order = ShuffleOrder.permutation(count: order.count, avoidingFirst: current, using: &generator)
        cursor = 0
        cycle += 1
    }

    /// Fisher–Yates (Durstenfeld): each of the `count!` orders is equally likely.
    public static func permutation(count: Int, using generator: inout SeededGenerator) -> [Int] {
        var order = Array(0..<max(count, 0))
        var index = order.count - 1
        while index > 0 {
            let other = generator.next(below: index + 1)
            order.swapAt(index, other)
            index -= 1
        }
        return order
    }

    /// A uniform permutation conditioned on `order[0] != avoided` (when `count >= 2`): if the
    /// plain shuffle starts with `avoided`, it is swapped with a uniformly chosen later
    /// position. Every other first track then has probability 1/(count-1), and the rest of the
    /// order stays uniform.
    static func permutation(count: Int, avoidingFirst avoided: Int, using generator: inout SeededGenerator) -> [Int] {
        var order = permutation(count: count, using: &generator)
        if order.count >= 2 && order[0] == avoided {
            let other = 1 + generator.next(below: order.count - 1)
            order.swapAt(0, other)
        }
        return order
    }

    static func isPermutation(_ order: [Int]) -> Bool {
        var seen = [Bool](repeating: false, count: order.count)
        for track in order {
            guard track >= 0 && track < order.count && !seen[track] else { return false }
            seen[track] = true
        }
        return true
    }
}
