/// A man page in roff (man(7) macros), built from text: the shfl(1) and shfl.ini(5) pages are
/// made from the same tables as the usage text and the sample configuration, so they cannot
/// drift. Text given to it is plain; the builder escapes what roff would read as requests or
/// escapes (a backslash, a "." or "'" at the start of a line) and writes "-" as "\-", the
/// ASCII hyphen-minus that options and file names need.
public struct ManualPage: Sendable {
    private var lines: [String]

    /// `.TH NAME SECTION DATE SOURCE MANUAL`: "shfl", "1", "2026-11-24", "shfl 0.1.0".
    public init(name: String, section: String, date: String, source: String, manual: String) {
        lines = [
            ".TH " + ManualPage.quoted(ManualPage.upper(name)) + " " + section + " " + ManualPage.quoted(date) + " "
                + ManualPage.quoted(source) + " " + ManualPage.quoted(manual),
            // Left-aligned, no hyphenation: option lists and paths wrap whole, as typed.
            ".nh",
            ".ad l",
        ]
    }

    /// A section heading: `.SH NAME`.
    public mutating func section(_ title: String) {
        lines.append(".SH " + ManualPage.quoted(ManualPage.upper(title)))
    }

    /// A subsection heading: `.SS title`.
    public mutating func subsection(_ title: String) {
        lines.append(".SS " + ManualPage.quoted(title))
    }

    /// A paragraph of running text (filled by the formatter).
    public mutating func paragraph(_ text: String) {
        lines.append(".PP")
        lines.append(ManualPage.escaped(text))
    }

    /// A tagged paragraph: `tag` in bold (`tagRest` after it in roman), then `text` indented.
    public mutating func tagged(_ tag: String, _ tagRest: String = "", _ text: [String]) {
        lines.append(".TP")
        lines.append("\\fB" + ManualPage.inline(tag) + "\\fR" + ManualPage.inline(tagRest))
        for (index, line) in text.enumerated() {
            if index > 0 { lines.append(".br") }
            lines.append(ManualPage.escaped(line))
        }
    }

    /// Lines shown as they are (`.nf` ... `.fi`), in an indented block.
    public mutating func preformatted(_ text: String) {
        lines.append(".RS")
        lines.append(".nf")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(line.isEmpty ? "" : ManualPage.escaped(String(line)))
        }
        lines.append(".fi")
        lines.append(".RE")
    }

    /// The page's roff text, ending with a newline.
    public var text: String {
        var text = ""
        for line in lines { text += line + "\n" }
        return text
    }

    /// `text` as the body of a line: escaped, and protected when it starts with "." or "'".
    static func escaped(_ text: String) -> String {
        let body = inline(text)
        if body.hasPrefix(".") || body.hasPrefix("'") { return "\\&" + body }
        return body
    }

    /// `text` escaped for use inside a line.
    static func inline(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            default: result.append(character)
            }
        }
        return result
    }

    /// A macro argument in double quotes (a quote inside is doubled, as groff reads it).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in inline(text) {
            result += character == "\"" ? "\"\"" : String(character)
        }
        return result + "\""
    }

    private static func upper(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x61 && scalar.value <= 0x7A, let upper = Unicode.Scalar(scalar.value - 0x20) {
                result.unicodeScalars.append(upper)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
