import ShflCore
import Testing

@Suite struct ShuffleOrderTests {
    /// Chi-square statistic of observed counts against a uniform expectation.
    func chiSquare(_ counts: [Int]) -> Double {
        let total = counts.reduce(0, +)
        let expected = Double(total) / Double(counts.count)
        return counts.reduce(0.0) { sum, observed in
            let difference = Double(observed) - expected
            return sum + difference * difference / expected
        }
    }

    // Critical values of the chi-square distribution for p = 0.001.
    let critical9DegreesOfFreedom = 27.877
    let critical8DegreesOfFreedom = 26.124

    @Test func firstTrackOf10000ShufflesIsUniform() {
        var generator = SeededGenerator(seed: 2026)
        var firstCounts = [Int](repeating: 0, count: 10)
        // Every track at every position: catches a permutation biased beyond its first slot.
        var positionCounts = [[Int]](repeating: [Int](repeating: 0, count: 10), count: 10)
        for _ in 0..<10_000 {
            let order = ShuffleOrder.permutation(count: 10, using: &generator)
            firstCounts[order[0]] += 1
            for (position, track) in order.enumerated() { positionCounts[position][track] += 1 }
        }
        #expect(chiSquare(firstCounts) < critical9DegreesOfFreedom, "first-track counts \(firstCounts)")
        for (position, counts) in positionCounts.enumerated() {
            #expect(chiSquare(counts) < critical9DegreesOfFreedom, "position \(position): \(counts)")
        }
    }

    @Test func everyTrackPlaysOncePerCycleAndCyclesNeverRepeatAcrossTheBoundary() {
        for count in 1...7 {
            var shuffle = ShuffleOrder(trackCount: count, generator: SeededGenerator(seed: UInt64(count)))
            var previousLast: Int?
            for cycle in 0..<300 {
                #expect(shuffle.cycle == cycle)
                var played: [Int] = []
                for _ in 0..<count {
                    if let current = shuffle.current { played.append(current) }
                    shuffle.advance()
                }
                #expect(played.sorted() == Array(0..<count), "cycle \(cycle) of \(count) tracks: \(played)")
                if count >= 2, let previousLast {
                    #expect(played[0] != previousLast, "cycle \(cycle) starts with the previous cycle's last track")
                }
                previousLast = played.last
            }
        }
    }

    @Test func firstTrackOfANewCycleIsUniformAmongTheOthers() {
        var shuffle = ShuffleOrder(trackCount: 9, generator: SeededGenerator(seed: 7))
        var counts = [Int](repeating: 0, count: 9)
        for _ in 0..<9_000 {
            for _ in 0..<8 { shuffle.advance() }
            guard let last = shuffle.current else { break }
            shuffle.advance()
            guard let first = shuffle.current else { break }
            // Rotate so the excluded previous-last track drops out of the statistic.
            counts[(first - last + 9) % 9] += 1
        }
        #expect(counts[0] == 0)
        #expect(chiSquare(Array(counts[1...])) < critical8DegreesOfFreedom, "\(counts)")
    }

    @Test func sameSeedSameOrderDifferentSeedDifferentOrder() {
        let a = ShuffleOrder(trackCount: 120, generator: SeededGenerator(seed: 1))
        let b = ShuffleOrder(trackCount: 120, generator: SeededGenerator(seed: 1))
        let c = ShuffleOrder(trackCount: 120, generator: SeededGenerator(seed: 2))
        #expect(a.order == b.order)
        #expect(a.order != c.order)
    }

    @Test func reshuffleStartsANewOrderWithoutTheCurrentTrackFirst() {
        var shuffle = ShuffleOrder(trackCount: 5, generator: SeededGenerator(seed: 3))
        for _ in 0..<500 {
            shuffle.advance()
            let current = shuffle.current
            let cycle = shuffle.cycle
            shuffle.reshuffle()
            #expect(shuffle.cursor == 0)
            #expect(shuffle.cycle == cycle + 1)
            #expect(shuffle.current != current)
            #expect(shuffle.order.sorted() == Array(0..<5))
        }
    }

    @Test func upcomingIsWhereAdvanceGoes() {
        var shuffle = ShuffleOrder(trackCount: 4, generator: SeededGenerator(seed: 11))
        for _ in 0..<20 {
            let upcoming = shuffle.upcoming
            shuffle.advance()
            #expect(shuffle.current == upcoming)
        }
    }

    @Test func restoringValidatesTheSavedOrder() {
        let generator = SeededGenerator(seed: 5)
        #expect(ShuffleOrder(order: [2, 0, 1], cursor: 2, cycle: 4, generator: generator)?.current == 1)
        #expect(ShuffleOrder(order: [], cursor: 0, cycle: 0, generator: generator)?.current == nil)
        #expect(ShuffleOrder(order: [0, 0, 1], cursor: 0, cycle: 0, generator: generator) == nil)
        #expect(ShuffleOrder(order: [0, 3, 1], cursor: 0, cycle: 0, generator: generator) == nil)
        #expect(ShuffleOrder(order: [0, 1], cursor: 2, cycle: 0, generator: generator) == nil)
        #expect(ShuffleOrder(order: [0, 1], cursor: 0, cycle: -1, generator: generator) == nil)
    }

    @Test func emptyShuffleHasNoTrackAndDoesNotCrash() {
        var shuffle = ShuffleOrder(trackCount: 0, generator: SeededGenerator(seed: 1))
        shuffle.advance()
        shuffle.reshuffle()
        #expect(shuffle.current == nil)
        #expect(shuffle.upcoming == nil)
    }

    @Test func boundedGeneratorIsUnbiasedForAnAwkwardBound() {
        var generator = SeededGenerator(seed: 99)
        var counts = [Int](repeating: 0, count: 10)
        for _ in 0..<50_000 { counts[generator.next(below: 10)] += 1 }
        #expect(chiSquare(counts) < critical9DegreesOfFreedom, "\(counts)")
    }
}
