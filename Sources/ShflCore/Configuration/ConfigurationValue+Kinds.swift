/// The kinds of value the configuration keys take. Words (true, off, auto, policy names,
/// file systems, units) ignore ASCII case; names and paths keep theirs.

extension ConfigurationValue where Value == Int {
    /// A whole number in `range`: "50".
    public static func integer(_ range: ClosedRange<Int>) -> ConfigurationValue<Int> {
        ConfigurationValue(
            expected: "a whole number from " + String(range.lowerBound) + " to " + String(range.upperBound),
            read: { text in
                guard let number = Int(text), range.contains(number) else { return nil }
                return number
            },
            write: { String($0) })
    }
}

extension ConfigurationValue where Value == Bool {
    /// true/false, also yes/no, on/off and 1/0; written as true or false.
    public static var boolean: ConfigurationValue<Bool> {
        ConfigurationValue(
            expected: "true or false",
            read: { text in
                switch ConfigurationSpelling.folded(text) {
                case "true", "yes", "on", "1": true
                case "false", "no", "off", "0": false
                default: nil
                }
            },
            write: { $0 ? "true" : "false" })
    }
}

extension ConfigurationValue where Value == Duration {
    /// A duration with its unit, in `range`: "20ms", "2s", "1.5s", "200000us". A unit is
    /// required (a bare "200" could mean anything); the smallest step is a microsecond.
    /// Written in the largest unit that keeps it whole.
    public static func duration(_ range: ClosedRange<Duration>) -> ConfigurationValue<Duration> {
        ConfigurationValue(
            expected: "a duration from " + durationText(range.lowerBound) + " to " + durationText(range.upperBound)
                + " with its unit (us, ms or s)",
            read: { text in
                guard let duration = parseDuration(text), range.contains(duration) else { return nil }
                return duration
            },
            write: { durationText($0) })
    }

    /// "2s", "500ms", "250us": the largest unit in which the duration is whole.
    public static func durationText(_ duration: Duration) -> String {
        let nanoseconds = duration.nanoseconds
        if nanoseconds % 1_000_000_000 == 0 { return String(nanoseconds / 1_000_000_000) + "s" }
        if nanoseconds % 1_000_000 == 0 { return String(nanoseconds / 1_000_000) + "ms" }
        return String(nanoseconds / 1_000) + "us"
    }

    /// Digits, optionally a point and more digits, optional spaces, a unit (us, µs, ms, s).
    /// Nil for anything else, or for a value that is not a whole number of microseconds.
    static func parseDuration(_ text: String) -> Duration? {
        let bytes = Array(text.utf8)
        var index = 0
        var whole: Int64 = 0
        var wholeDigits = 0
        while index < bytes.count, let digit = decimalDigit(bytes[index]) {
            guard wholeDigits < 9 else { return nil }
            whole = whole * 10 + digit
            wholeDigits += 1
            index += 1
        }
        guard wholeDigits > 0 else { return nil }
        var fraction: [Int64] = []
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, let digit = decimalDigit(bytes[index]) {
                guard fraction.count < 9 else { return nil }
                fraction.append(digit)
                index += 1
            }
            guard !fraction.isEmpty else { return nil }
        }
        while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
            index += 1
        }
        let unit = ConfigurationSpelling.folded(String(decoding: bytes[index...], as: UTF8.self))
        let scale: Int64
        switch unit {
        case "s": scale = 1_000_000_000
        case "ms": scale = 1_000_000
        case "us", "µs": scale = 1_000
        default: return nil
        }
        // Exact arithmetic: fraction digits times the unit, in nanoseconds.
        var fractionNanoseconds: Int64 = 0
        var place = scale
        for digit in fraction {
            guard place % 10 == 0 else { return nil }  // finer than a nanosecond
            place /= 10
            fractionNanoseconds += digit * place
        }
        let nanoseconds = whole * scale + fractionNanoseconds
        guard nanoseconds % 1_000 == 0 else { return nil }
        return .nanoseconds(nanoseconds)
    }

    private static func decimalDigit(_ byte: UInt8) -> Int64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
    }
}

extension ConfigurationValue where Value == String {
    /// Any text that is not empty (an ALSA device name).
    public static func text(_ what: String) -> ConfigurationValue<String> {
        ConfigurationValue(expected: what, read: { $0.isEmpty ? nil : $0 }, write: { $0 })
    }

    /// An absolute path: "/var/lib/shfl". A trailing "/" is dropped (but "/" stays "/").
    public static var absolutePath: ConfigurationValue<String> {
        ConfigurationValue(expected: "an absolute path (starting with /)", read: { absolutePath($0) }, write: { $0 })
    }

    static func absolutePath(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ConfigurationValue where Value == String? {
    /// `auto` (nil) or a name or path given as it is (a pin map: "pi-4").
    public static func automaticOr(_ what: String) -> ConfigurationValue<String?> {
        ConfigurationValue(
            expected: "auto or " + what,
            read: { text in
                if text.isEmpty { return nil }
                return ConfigurationSpelling.folded(text) == "auto" ? .some(nil) : .some(text)
            },
            write: { $0 ?? "auto" })
    }
}

extension ConfigurationValue where Value == [String] {
    /// File system types from `MediaConfiguration.knownFilesystems`, separated by commas or
    /// spaces, at least one, none twice: "vfat, exfat, ext4, ntfs". "ntfs3" (the kernel
    /// driver's name) is taken as "ntfs".
    public static var filesystems: ConfigurationValue<[String]> {
        var known = ""
        for name in MediaConfiguration.knownFilesystems { known += (known.isEmpty ? "" : ", ") + name }
        return ConfigurationValue(
            expected: "a list of file systems from " + known + ", separated by commas",
            read: { text in
                var names: [String] = []
                for piece in ConfigurationSpelling.folded(text).utf8.split(whereSeparator: {
                    $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t")
                }) {
                    var name = String(decoding: piece, as: UTF8.self)
                    if name == "ntfs3" { name = "ntfs" }
                    guard MediaConfiguration.knownFilesystems.contains(name), !names.contains(name) else { return nil }
                    names.append(name)
                }
                return names.isEmpty ? nil : names
            },
            write: { names in
                var text = ""
                for name in names { text += (text.isEmpty ? "" : ", ") + name }
                return text
            })
    }
}

extension ConfigurationValue where Value == SelectionPolicy {
    /// alphabetical, recently-added, most-played, recently-played or random.
    public static var policy: ConfigurationValue<SelectionPolicy> {
        var names = ""
        for (index, policy) in SelectionPolicy.allCases.enumerated() {
            let last = index == SelectionPolicy.allCases.count - 1
            names += (index == 0 ? "" : (last ? " or " : ", ")) + policy.configName
        }
        return ConfigurationValue(
            expected: names, read: { SelectionPolicy(configName: $0) }, write: { $0.configName })
    }
}

extension ConfigurationValue where Value == LinePolarity? {
    /// auto (nil: as the pin map says), high or low.
    public static var polarity: ConfigurationValue<LinePolarity?> {
        ConfigurationValue(
            expected: "auto, high or low",
            read: { text in
                let word = ConfigurationSpelling.folded(text)
                if word == "auto" { return .some(nil) }
                guard let polarity = LinePolarity(configValue: word) else { return nil }
                return .some(polarity)
            },
            write: { $0?.description ?? "auto" })
    }
}

extension ConfigurationValue where Value == MixerChoice {
    /// auto, software, or an ALSA card ("hw:0").
    public static var mixer: ConfigurationValue<MixerChoice> {
        ConfigurationValue(
            expected: "auto, software or an ALSA card such as hw:0",
            read: { text in
                switch ConfigurationSpelling.folded(text) {
                case "": nil
                case "auto": .automatic
                case "software": .software
                default: .card(text)
                }
            },
            write: { $0.description })
    }
}

extension ConfigurationValue where Value == MediaSource {
    /// udev, kernel, or directory:PATH with an absolute PATH.
    public static var mediaSource: ConfigurationValue<MediaSource> {
        ConfigurationValue(
            expected: "udev, kernel or directory:PATH with an absolute PATH",
            read: { text in
                switch ConfigurationSpelling.folded(text) {
                case "udev": return .udev
                case "kernel": return .kernel
                default:
                    let prefix = "directory:"
                    guard ConfigurationSpelling.folded(text).hasPrefix(prefix) else { return nil }
                    let rest = String(decoding: Array(text.utf8).dropFirst(prefix.utf8.count), as: UTF8.self)
                    guard let path = ConfigurationValue<String>.absolutePath(ConfigurationSpelling.value(rest)) else {
                        return nil
                    }
                    return .directory(path)
                }
            },
            write: { $0.description })
    }
}

extension ConfigurationValue where Value == ButtonBinding.Repeat? {
    /// Two durations, the first repeat's delay and the interval, separated by a comma
    /// ("500ms, 250ms"), or off (one step per press).
    public static func repeating(delay: ClosedRange<Duration>, interval: ClosedRange<Duration>) -> ConfigurationValue<ButtonBinding.Repeat?> {
        let delays = ConfigurationValue<Duration>.duration(delay)
        let intervals = ConfigurationValue<Duration>.duration(interval)
        let text = ConfigurationValue<Duration>.durationText
        return ConfigurationValue(
            expected: "off, or the first repeat's delay (" + text(delay.lowerBound) + " to " + text(delay.upperBound)
                + ") and the interval (" + text(interval.lowerBound) + " to " + text(interval.upperBound)
                + ") separated by a comma",
            read: { text in
                if ConfigurationSpelling.folded(text) == "off" { return .some(nil) }
                let parts = text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                guard parts.count == 2,
                    let first = delays.read(ConfigurationSpelling.value(String(decoding: parts[0], as: UTF8.self))),
                    let second = intervals.read(ConfigurationSpelling.value(String(decoding: parts[1], as: UTF8.self)))
                else { return nil }
                return .some(ButtonBinding.Repeat(delay: first, interval: second))
            },
            write: { timing in
                guard let timing else { return "off" }
                return text(timing.delay) + ", " + text(timing.interval)
            })
    }
}
