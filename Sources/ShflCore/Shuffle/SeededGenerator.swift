/// A small, fast, seedable random number generator (SplitMix64, Steele, Lea & Flood 2014).
/// Its whole state is one `UInt64`, so a shuffle can be saved and resumed exactly, and the
/// same seed gives the same numbers on every platform and in both builds.
public struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
    public var state: UInt64

    public init(seed: UInt64) {
        self.state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed integer in `0..<bound` (`bound > 0`), without modulo bias
    /// (Lemire's multiply-and-reject method). Written out here rather than taken from the
    /// standard library so that saved shuffles never change meaning with a toolchain update.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }
}
