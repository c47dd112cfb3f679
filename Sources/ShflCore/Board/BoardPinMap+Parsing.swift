extension BoardPinMap {
    /// Reads a pin map file (board/*.ini). The format is a small fixed INI:
    ///
    ///     # comment (also ";"; after a value or section, only following a space or tab)
    ///     [board]
    ///     title = Raspberry Pi 4 Model B    ; for people; defaults to the name
    ///     model = Raspberry Pi 4            ; start of /proc/device-tree/model; optional
    ///     chip = pinctrl-bcm2711            ; the GPIO chip's label; required
    ///     header = raspberry-pi-40          ; or none (the default)
    ///     [play]                            ; also [skip], [volume-up], [volume-down], [led]
    ///     line = 17                         ; the chip's line; required
    ///     pin = 11                          ; header pin; checked against the header
    ///     [led]
    ///     line = 24
    ///     active = high                     ; or low; [led] only; defaults to high
    ///
    /// [board], [play], [skip] and [led] are required; [volume-up] and [volume-down] are
    /// optional (the `Button(name:)` spellings such as [vol+] work too). Sections, keys and the
    /// `header` and `active` values are case-insensitive; the chip label is not. Lines may end
    /// in LF or CRLF, and a UTF-8 byte order mark is skipped.
    ///
    /// Everything wrong is an error naming `file` and the line: unknown section or key, a
    /// section or key given twice, a line used by two parts, a header pin that does not carry
    /// the line, a missing required section or key, a value that is not a number.
    /// - Parameters:
    ///   - name: the board's short name (the file's name without ".ini").
    ///   - file: how errors name the file ("board/pi-4.ini").
    public static func parse(_ contents: [UInt8], name: String, file: String) throws(BoardPinMapError) -> BoardPinMap {
        var parser = BoardPinMapParser(file: file)
        try parser.read(contents)
        return try parser.pinMap(name: name)
    }
}

/// The parser behind `BoardPinMap.parse(_:name:file:)`: first the syntax, section by section,
/// then the meaning, in file order, so the first error in the file is the one reported.
struct BoardPinMapParser {
    enum SectionKind: Hashable {
        case board
        case part(BoardPart)

        var title: String {
            switch self {
            case .board: "[board]"
            case .part(let part): "[" + part.sectionName + "]"
            }
        }

        var keys: [String] {
            switch self {
            case .board: ["title", "model", "chip", "header"]
            case .part(.led): ["line", "pin", "active"]
            case .part: ["line", "pin"]
            }
        }
    }

    struct Entry {
        var key: String
        var value: String
        var line: Int
    }

    struct Section {
        var kind: SectionKind
        var line: Int
        var entries: [Entry] = []

        func entry(_ key: String) -> Entry? {
            entries.first { $0.key == key }
        }
    }

    let file: String
    private(set) var sections: [Section] = []
    /// The last line's number (where a missing section is reported).
    private(set) var lastLine = 1

    init(file: String) {
        self.file = file
    }

    func error(_ line: Int, _ message: String) -> BoardPinMapError {
        BoardPinMapError(file: file, line: line, message)
    }

    // MARK: Syntax

    mutating func read(_ contents: [UInt8]) throws(BoardPinMapError) {
        var bytes = contents[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var lineNumber = 0
        while !bytes.isEmpty || lineNumber == 0 {
            lineNumber += 1
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var text = bytes[bytes.startIndex..<end]
            bytes = end < bytes.endIndex ? bytes[(end + 1)...] : bytes[bytes.endIndex...]
            if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
            try readLine(Self.trimmed(text), number: lineNumber)
        }
        lastLine = lineNumber
    }

    private mutating func readLine(_ text: ArraySlice<UInt8>, number: Int) throws(BoardPinMapError) {
        guard let first = text.first, first != UInt8(ascii: "#"), first != UInt8(ascii: ";") else { return }
        if first == UInt8(ascii: "[") {
            let header = Self.trimmed(Self.withoutComment(text))
            guard header.last == UInt8(ascii: "]"), header.count >= 2 else {
                throw error(number, "a section header must end with ']': '" + Self.string(text) + "'")
            }
            let name = Self.lowercased(Self.trimmed(header.dropFirst().dropLast()))
            let kind: SectionKind
            if name == "board" {
                kind = .board
            } else if name == "led" {
                kind = .part(.led)
            } else if let button = Button(name: name) {
                kind = .part(.button(button))
            } else {
                throw error(number, "unknown section [" + name + "] (expected [board], [play], [skip], [volume-up], [volume-down] or [led])")
            }
            if let earlier = sections.first(where: { $0.kind == kind }) {
                throw error(number, "duplicate section " + kind.title + " (first at line " + String(earlier.line) + ")")
            }
            sections.append(Section(kind: kind, line: number))
            return
        }
        guard let equals = text.firstIndex(of: UInt8(ascii: "=")) else {
            throw error(number, "expected 'key = value', '[section]' or a comment: '" + Self.string(text) + "'")
        }
        let key = Self.lowercased(Self.trimmed(text[text.startIndex..<equals]))
        let value = Self.string(Self.trimmed(Self.withoutComment(text[(equals + 1)...])))
        guard !key.isEmpty else { throw error(number, "a key is missing before '='") }
        guard let current = sections.indices.last else {
            throw error(number, "'" + key + "' is outside a section: put it under [board], [play], [skip], [volume-up], [volume-down] or [led]")
        }
        let section = sections[current]
        guard section.kind.keys.contains(key) else {
            throw error(number, "unknown key '" + key + "' in " + section.kind.title + " (expected " + Self.list(section.kind.keys) + ")")
        }
        if let earlier = section.entry(key) {
            throw error(number, "duplicate key '" + key + "' in " + section.kind.title + " (first at line " + String(earlier.line) + ")")
        }
        guard !value.isEmpty else { throw error(number, "'" + key + "' has no value") }
        sections[current].entries.append(Entry(key: key, value: value, line: number))
    }

    // MARK: Meaning

    func pinMap(name: String) throws(BoardPinMapError) -> BoardPinMap {
        guard let board = sections.first(where: { $0.kind == .board }) else {
            throw error(lastLine, "missing [board] section (with the GPIO chip's label: chip = ...)")
        }
        guard let chip = board.entry("chip") else {
            throw error(board.line, "[board] has no 'chip' (the GPIO chip's label, e.g. chip = pinctrl-bcm2711)")
        }
        var header = BoardHeader.none
        if let entry = board.entry("header") {
            guard let parsed = BoardHeader(configValue: Self.lowercased(entry.value)) else {
                throw error(entry.line, "header must be raspberry-pi-40 or none, not '" + entry.value + "'")
            }
            header = parsed
        }

        var buttons: [Button: BoardPin] = [:]
        var led: BoardPin?
        var polarity = LinePolarity.activeHigh
        var used: [(line: Int, part: BoardPart, at: Int)] = []
        for section in sections {
            guard case .part(let part) = section.kind else { continue }
            let (pin, lineEntry) = try readPin(section, part: part, header: header)
            if let other = used.first(where: { $0.line == pin.line }) {
                throw error(lineEntry.line, header.lineName(pin.line) + " is already used by " + other.part.description + " (line " + String(other.at) + ")")
            }
            used.append((pin.line, part, lineEntry.line))
            switch part {
            case .button(let button):
                buttons[button] = pin
            case .led:
                led = pin
                if let entry = section.entry("active") {
                    guard let parsed = LinePolarity(configValue: Self.lowercased(entry.value)) else {
                        throw error(entry.line, "active must be high or low, not '" + entry.value + "'")
                    }
                    polarity = parsed
                }
            }
        }
        for required in [Button.play, .skip] where buttons[required] == nil {
            let part = BoardPart.button(required)
            throw error(lastLine, "missing [" + part.sectionName + "] section: " + part.description + " is required")
        }
        guard let led else {
            throw error(lastLine, "missing [led] section: the LED's line is required")
        }
        return BoardPinMap(
            name: name, title: board.entry("title")?.value ?? name, model: board.entry("model")?.value,
            chipLabel: chip.value, header: header, buttons: buttons, led: led, ledPolarity: polarity)
    }

    /// The section's line and header pin, checked against the header.
    private func readPin(_ section: Section, part: BoardPart, header: BoardHeader) throws(BoardPinMapError) -> (BoardPin, Entry) {
        guard let lineEntry = section.entry("line") else {
            throw error(section.line, section.kind.title + " has no 'line' (the chip's line number for " + part.description + ")")
        }
        guard let line = Self.number(lineEntry.value) else {
            throw error(lineEntry.line, "line must be a whole number, not '" + lineEntry.value + "'")
        }
        let onHeader = header.pin(ofLine: line)
        guard let pinEntry = section.entry("pin") else {
            if header == .raspberryPi40 && onHeader == nil {
                throw error(lineEntry.line, header.lineName(line) + " is not on the 40-pin header")
            }
            return (BoardPin(line: line, headerPin: onHeader), lineEntry)
        }
        guard let pin = Self.number(pinEntry.value) else {
            throw error(pinEntry.line, "pin must be a whole number, not '" + pinEntry.value + "'")
        }
        switch header {
        case .none:
            throw error(pinEntry.line, "'pin' needs a header, and [board] has header = none")
        case .raspberryPi40:
            guard let function = RaspberryPiHeader.function(ofPin: pin) else {
                throw error(pinEntry.line, "pin " + String(pin) + " is not on the 40-pin header (1 to 40)")
            }
            guard onHeader == pin else {
                throw error(pinEntry.line, "pin " + String(pin) + " is " + function.description + ", not " + header.lineName(line))
            }
        }
        return (BoardPin(line: line, headerPin: pin), lineEntry)
    }

    // MARK: Text helpers (bytes, so that nothing here depends on Unicode tables)

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = text
        while let first = slice.first, isBlank(first) { slice = slice.dropFirst() }
        while let last = slice.last, isBlank(last) { slice = slice.dropLast() }
        return slice
    }

    /// The value without a trailing comment: "#" or ";" after a space or tab.
    static func withoutComment(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var previous = UInt8(ascii: " ")
        for index in text.indices {
            let byte = text[index]
            if (byte == UInt8(ascii: "#") || byte == UInt8(ascii: ";")) && isBlank(previous) {
                return text[text.startIndex..<index]
            }
            previous = byte
        }
        return text
    }

    static func lowercased(_ text: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        for byte in text {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func lowercased(_ text: String) -> String {
        lowercased(Array(text.utf8)[...])
    }

    static func string(_ text: ArraySlice<UInt8>) -> String {
        String(decoding: text, as: UTF8.self)
    }

    /// A whole number of at most five digits (GPIO chips have far fewer lines).
    static func number(_ text: String) -> Int? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count <= 5 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    static func list(_ words: [String]) -> String {
        var text = ""
        for (index, word) in words.enumerated() {
            if index > 0 { text += index == words.count - 1 ? " or " : ", " }
            text += word
        }
        return text
    }
}
