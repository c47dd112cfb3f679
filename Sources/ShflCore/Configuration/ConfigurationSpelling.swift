/// How configuration text is compared and cleaned: section and key names ignore ASCII case
/// and treat "_" as "-"; values lose surrounding spaces and one pair of double quotes.
/// Byte-wise, so it works the same in Embedded Swift.
enum ConfigurationSpelling {
    /// "Buffer_Time " → "buffer-time".
    static func name(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in trimmed(Array(text.utf8)) {
            bytes.append(byte == UInt8(ascii: "_") ? UInt8(ascii: "-") : lowercased(byte))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ASCII letters in lower case; everything else as it is.
    static func folded(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 { bytes.append(lowercased(byte)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A value without surrounding spaces and tabs, and without one pair of double quotes
    /// around it (`device = "hw:1,0"`).
    static func value(_ text: String) -> String {
        var bytes = trimmed(Array(text.utf8))
        if bytes.count >= 2 && bytes.first == UInt8(ascii: "\"") && bytes.last == UInt8(ascii: "\"") {
            bytes = Array(bytes[1..<(bytes.count - 1)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0
        var end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return Array(bytes[start..<end])
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// The candidate closest to `word` by edit distance (insertions, deletions, substitutions
    /// and swaps of neighbours), if it is close enough to be a likely typo: one edit for short
    /// words, two from five characters, three from nine. Ties go to the earlier candidate.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let target = Array(word.utf8)
        let allowed = target.count >= 9 ? 3 : (target.count >= 5 ? 2 : 1)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.utf8))
            if distance <= allowed && distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance (Damerau–Levenshtein without repeated edits).
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var previous2 = [Int](repeating: 0, count: width)
        var previous = [Int](repeating: 0, count: width)
        var current = [Int](repeating: 0, count: width)
        for j in 0..<width { previous[j] = j }
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
