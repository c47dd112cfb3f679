import CSystem
import ShflCore

/// Random seeds from the kernel (`getrandom(2)`), for new shuffles and the random policy.
public enum SystemEntropy {
    /// 64 random bits; falls back to the monotonic clock if the kernel refuses (never on Linux
    /// 3.17+ once the pool is initialised).
    public static func seed() -> UInt64 {
        var value: UInt64 = 0
        let result = retryingOnInterrupt { getrandom(&value, 8, 0) }
        if case .success(8) = result { return value }
        return UInt64(bitPattern: SystemMonotonicClock().now.nanoseconds) &* 0x9E37_79B9_7F4A_7C15
    }
}
