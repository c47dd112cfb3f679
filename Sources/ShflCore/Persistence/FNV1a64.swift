/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): the checksum of an encoded `StickState`, the
/// short name of a long state-file name, the fingerprints of `shfl self-check`.
///
/// Chosen over CRC-32 because it is a few lines, has 64 bits, and detects every single-byte
/// change with certainty: each step `(hash ^ byte) * prime` is a bijection of the hash for a
/// given byte (the prime is odd), so two inputs that differ in one byte hash differently.
public struct FNV1a64: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        value = hash
    }

    /// The hash of `bytes`.
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hasher = FNV1a64()
        hasher.add(bytes)
        return hasher.value
    }
}
