// The byte-level pieces of the stick-state format: escaping, numbers, hex, fields.
// Everything works on bytes, not `String`, because paths need not be valid UTF-8.

extension StickStateCodec {
    static let newline = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let percent = UInt8(ascii: "%")
    static let minus = UInt8(ascii: "-")
    static let zero = UInt8(ascii: "0")

    // MARK: Escaping

    /// True for a byte written as itself in an escaped field: printable ASCII except space
    /// and "%". Every other byte is written as `%XX`.
    static func isPlain(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != percent
    }

    /// Appends `bytes` escaped: plain bytes as themselves, all others as `%XX` (uppercase hex).
    static func appendEscaped(_ bytes: [UInt8], to output: inout [UInt8]) {
        for byte in bytes {
            if isPlain(byte) {
                output.append(byte)
            } else {
                output.append(percent)
                Hexadecimal.append(UInt64(byte), digits: 2, .uppercase, to: &output)
            }
        }
    }

    /// The bytes of an escaped field. Accepts only the canonical spelling `appendEscaped`
    /// writes (uppercase `%XX`, and only for bytes that need it), so a decoded state encodes
    /// back to the same bytes.
    static func unescape(
        _ field: ArraySlice<UInt8>, what: String, line: Int
    ) throws(StickStateCodecError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            if isPlain(byte) {
                result.append(byte)
                index += 1
                continue
            }
            guard byte == percent, field.endIndex - index >= 3,
                let high = Hexadecimal.value(ofDigit: field[index + 1], .uppercase),
                let low = Hexadecimal.value(ofDigit: field[index + 2], .uppercase),
                !isPlain(high << 4 | low)
            else {
                let end = min(index + 3, field.endIndex)
                throw StickStateCodecError(
                    line: line, kind: .badValue,
                    message: "bad escape " + quoted(field[index..<end]) + " in " + what + " "
                        + quoted(field))
            }
            result.append(high << 4 | low)
            index += 3
        }
        return result
    }

    // MARK: Numbers

    /// Appends `value` in decimal, with "-" when negative.
    static func appendDecimal(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(minus) }
        appendDecimal(value.magnitude, to: &output)
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to output: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(zero + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        output.append(contentsOf: digits.reversed())
    }

    /// A canonical decimal: digits with no leading zero (except "0" itself), no "+", no "-".
    static func parseUnsigned(_ field: ArraySlice<UInt8>) -> UInt64? {
        guard let first = field.first, field.count == 1 || first != zero else { return nil }
        var value: UInt64 = 0
        for byte in field {
            guard byte >= zero, byte <= zero + 9 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - zero))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    /// A canonical signed decimal: an optional "-" then `parseUnsigned` digits; no "-0".
    static func parseSigned(_ field: ArraySlice<UInt8>) -> Int64? {
        if field.first == minus {
            guard let magnitude = parseUnsigned(field.dropFirst()), magnitude != 0,
                magnitude <= UInt64(Int64.max) + 1
            else { return nil }
            return 0 &- Int64(truncatingIfNeeded: magnitude)
        }
        guard let magnitude = parseUnsigned(field), magnitude <= UInt64(Int64.max) else {
            return nil
        }
        return Int64(magnitude)
    }

    /// `parseSigned` narrowed to `Int`, or a `.badValue` error naming `what`.
    static func parseInt(
        _ field: ArraySlice<UInt8>, what: String, line: Int
    ) throws(StickStateCodecError) -> Int {
        guard let wide = parseSigned(field), let value = Int(exactly: wide) else {
            throw badValue(what, field, line: line)
        }
        return value
    }

    /// `parseSigned`, or a `.badValue` error naming `what`.
    static func parseInt64(
        _ field: ArraySlice<UInt8>, what: String, line: Int
    ) throws(StickStateCodecError) -> Int64 {
        guard let value = parseSigned(field) else { throw badValue(what, field, line: line) }
        return value
    }

    /// Whole milliseconds in `duration`, truncated toward zero; clamped to the `Int64` range
    /// (only absurd durations of millions of years reach it).
    static func milliseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow1) = seconds.multipliedReportingOverflow(by: 1000)
        let (total, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if overflow1 || overflow2 { return seconds < 0 ? .min : .max }
        return total
    }

    // MARK: Hex

    /// Appends `value` as exactly 16 lowercase hex digits.
    static func appendHex16(_ value: UInt64, to output: inout [UInt8]) {
        Hexadecimal.append(value, digits: 16, .lowercase, to: &output)
    }

    /// Exactly 16 lowercase hex digits, as `appendHex16` writes them.
    static func parseHex16(_ field: ArraySlice<UInt8>) -> UInt64? {
        guard field.count == 16 else { return nil }
        var value: UInt64 = 0
        for digit in field {
            guard let nibble = Hexadecimal.value(ofDigit: digit, .lowercase) else { return nil }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }

    // MARK: Lines and fields

    /// The lines of `bytes` as ranges without their "\n"; a last line with no "\n" is included
    /// (the caller sees it is unterminated from `bytes.last`).
    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == newline {
            ranges.append(start..<index)
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    /// The fields of a line, split at every single space (so "a  b" has an empty middle field).
    static func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = line.startIndex
        for index in line.indices where line[index] == space {
            result.append(line[start..<index])
            start = index + 1
        }
        result.append(line[start..<line.endIndex])
        return result
    }

    /// True for a key made of lowercase ASCII letters, digits and "-", starting with a letter.
    static func isWellFormedKey(_ key: ArraySlice<UInt8>) -> Bool {
        guard let first = key.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else {
            return false
        }
        return key.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= zero && byte <= zero + 9) || byte == minus
        }
    }

    // MARK: Messages

    /// `bytes` in double quotes for a log line: printable ASCII as is, other bytes (and `"`)
    /// as `%XX`, cut after 60 bytes with "...".
    static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        let limit = 60
        var shown: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes.prefix(limit) {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") {
                shown.append(byte)
            } else {
                shown.append(percent)
                Hexadecimal.append(UInt64(byte), digits: 2, .uppercase, to: &shown)
            }
        }
        if bytes.count > limit { shown.append(contentsOf: "...".utf8) }
        shown.append(UInt8(ascii: "\""))
        return String(decoding: shown, as: UTF8.self)
    }

    /// A track path quoted for a log line, in its escaped (file) spelling.
    static func quoted(_ path: TrackPath) -> String {
        var escaped: [UInt8] = []
        appendEscaped(path.bytes, to: &escaped)
        return quoted(escaped[...])
    }

    static func badValue(
        _ what: String, _ field: ArraySlice<UInt8>, line: Int
    ) -> StickStateCodecError {
        StickStateCodecError(line: line, kind: .badValue, message: "bad " + what + " " + quoted(field))
    }
}
