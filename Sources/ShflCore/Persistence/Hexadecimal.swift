/// Hexadecimal digits as ASCII bytes: the one place Shfl writes and reads numbers in hex (the
/// state file's `%XX` escapes and checksum, long stick IDs in file names, filesystem UUIDs,
/// udev's `\x2f` escapes, the self-check's checksums).
public enum Hexadecimal {
    /// Which letters a digit above 9 is written with, or (reading) accepted in.
    public enum Letters: Sendable {
        case uppercase
        case lowercase
    }

    /// The ASCII digit of `nibble` (its low four bits).
    public static func digit(_ nibble: UInt8, _ letters: Letters) -> UInt8 {
        let value = nibble & 0x0F
        return value < 10 ? UInt8(ascii: "0") + value : (letters == .uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + value - 10
    }

    /// The value of an ASCII hex digit written in `letters`, or in either case when nil; nil if
    /// `byte` is no such digit.
    public static func value(ofDigit byte: UInt8, _ letters: Letters? = nil) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F") where letters != .lowercase: return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f") where letters != .uppercase: return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Appends the low `digits` nibbles of `value`, most significant first (zero-padded).
    public static func append(_ value: UInt64, digits: Int, _ letters: Letters, to output: inout [UInt8]) {
        for index in stride(from: digits - 1, through: 0, by: -1) {
            output.append(digit(UInt8(truncatingIfNeeded: value >> UInt64(index * 4)), letters))
        }
    }

    /// `value` as exactly `digits` hex digits (zero-padded; higher nibbles dropped).
    public static func string(_ value: UInt64, digits: Int, _ letters: Letters) -> String {
        var text: [UInt8] = []
        append(value, digits: digits, letters, to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
