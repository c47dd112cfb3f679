import ShflCore

/// The line reader and handler context `InihConfigurationFile` gives libinih (through an
/// unretained pointer): hands inih one physical line per call, fgets-style, numbers them, and
/// passes each `key = value` to the builder. Lives only during one parse, on one thread.
final class InihLineReader {
    private let contents: [UInt8]
    /// Each line's bytes in `contents`, without its "\n".
    private let lines: [Range<Int>]
    /// The index (0-based) of the next line to hand out.
    private var next = 0
    /// The number (1-based) of the line last handed out.
    private var current = 0
    /// The line of the last section heading handed out ("[" ... "]"), where an unknown
    /// section is reported.
    private var heading: Int?
    /// Lines are numbered by inih from 1 in each pass; this is the number of lines before it.
    private(set) var passStart = 0
    /// Problems with single lines (too long, NUL) and entries are taken in the first pass
    /// only; later passes just look for the next syntax error.
    var isFirstPass = true
    private(set) var builder: ConfigurationBuilder

    init(_ contents: [UInt8], builder: ConfigurationBuilder) {
        var start = 0
        // A UTF-8 byte order mark, as Windows editors write it, is not part of the first line.
        if contents.count >= 3 && contents[0] == 0xEF && contents[1] == 0xBB && contents[2] == 0xBF { start = 3 }
        var lines: [Range<Int>] = []
        var index = start
        while index < contents.count {
            if contents[index] == UInt8(ascii: "\n") {
                lines.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        if start < contents.count { lines.append(start..<contents.count) }
        self.contents = contents
        self.lines = lines
        self.builder = builder
    }

    /// The `ini_reader` callback: copies the next line, with its "\n" and a terminating NUL,
    /// into `buffer` of `capacity` bytes; nil at the end. Leading spaces and tabs are dropped.
    /// A line that does not fit, or that holds a NUL byte, is handed out empty and reported.
    func nextLine(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> UnsafeMutablePointer<CChar>? {
        guard next < lines.count, capacity >= 2 else { return nil }
        var range = lines[next]
        next += 1
        current = next
        while range.lowerBound < range.upperBound
            && (contents[range.lowerBound] == UInt8(ascii: " ") || contents[range.lowerBound] == UInt8(ascii: "\t"))
        {
            range = (range.lowerBound + 1)..<range.upperBound
        }
        if range.count + 2 > capacity {
            if isFirstPass {
                report(current, "line is longer than " + String(capacity - 2) + " characters; ignored")
            }
            range = range.lowerBound..<range.lowerBound
        } else if contents[range].contains(0) {
            if isFirstPass { report(current, "line holds a NUL byte; ignored") }
            range = range.lowerBound..<range.lowerBound
        }
        if contents[range].first == UInt8(ascii: "[") && contents[range].contains(UInt8(ascii: "]")) { heading = current }
        var offset = 0
        for byte in contents[range] {
            buffer[offset] = CChar(bitPattern: byte)
            offset += 1
        }
        buffer[offset] = CChar(bitPattern: UInt8(ascii: "\n"))
        buffer[offset + 1] = 0
        return buffer
    }

    /// The `ini_handler` callback: one `key = value` of the current line.
    func entry(section: String, key: String, value: String) {
        guard isFirstPass else { return }
        builder.add(section: section, key: key, value: value, line: current, sectionLine: heading)
    }

    /// Starts handing out lines again from line `number` (1-based), for the next pass.
    func restart(atLine number: Int) {
        next = min(number - 1, lines.count)
        passStart = next
    }

    func report(_ line: Int?, _ message: String) {
        builder.report(ConfigurationProblem(.syntax, file: builder.file, line: line, message))
    }

    /// The line inih could not read: a heading without "]", or a line without "=" or ":".
    func reportSyntaxError(line: Int) {
        guard line >= 1 && line <= lines.count else {
            report(line, "cannot be read; ignored")
            return
        }
        let text = Array(contents[lines[line - 1]])
        var shown = String(decoding: trimmed(text).prefix(60), as: UTF8.self)
        if trimmed(text).count > 60 { shown += "..." }
        if trimmed(text).first == UInt8(ascii: "[") {
            report(line, "a section heading needs its closing ]: '" + shown + "'; the keys after it stay in the section before")
        } else {
            report(line, "expected key = value, a [section] heading or a # comment, not '" + shown + "'; ignored")
        }
    }

    private func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var slice = bytes[...]
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice.removeFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") || last == UInt8(ascii: "\r") {
            slice.removeLast()
        }
        return slice
    }
}
