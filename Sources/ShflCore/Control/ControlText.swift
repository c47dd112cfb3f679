/// Text that goes into a reply line or a systemd STATUS: one line, printable, bounded. Track
/// titles and request words are user data; a "\n" in them must not end a line early.
enum ControlText {
    /// `text` with control characters (U+0000...U+001F, U+007F...U+009F, U+2028, U+2029)
    /// replaced by "?", cut at a character boundary to at most `maximumBytes` UTF-8 bytes, a
    /// final "…" marking the cut.
    static func oneLine(_ text: String, maximumBytes: Int) -> String {
        var shown: [Unicode.Scalar] = []
        var total = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isControl = value < 0x20 || (value >= 0x7F && value <= 0x9F) || value == 0x2028 || value == 0x2029
            let visible: Unicode.Scalar = isControl ? "?" : scalar
            shown.append(visible)
            total += UTF8.width(visible)
        }
        var result = ""
        if total <= maximumBytes {
            result.unicodeScalars.append(contentsOf: shown)
            return result
        }
        let ellipsis: Unicode.Scalar = "\u{2026}"
        var bytes = UTF8.width(ellipsis)
        for scalar in shown {
            bytes += UTF8.width(scalar)
            if bytes > maximumBytes { break }
            result.unicodeScalars.append(scalar)
        }
        result.unicodeScalars.append(ellipsis)
        return result
    }

    /// A word from a request, for quoting in an error reason: decoded as UTF-8 (invalid bytes
    /// as U+FFFD), one printable line of at most 40 bytes.
    static func quotable(_ word: [UInt8]) -> String {
        oneLine(String(decoding: word, as: UTF8.self), maximumBytes: 40)
    }
}
