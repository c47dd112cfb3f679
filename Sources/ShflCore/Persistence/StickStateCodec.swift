/// Turns a `StickState` into the bytes a `StateStore` keeps, and back (SPEC §8). Pure: no I/O;
/// the store writes the bytes atomically.
///
/// The format is a small line-based ASCII text, readable with `cat` on a player:
///
///     shfl-stick-state 1
///     stick 1A2B-3C4D
///     volume 50
///     play-serial 42
///     generator 11400714819323198485
///     cycle 2
///     cursor 1
///     position-ms 81250
///     order Album/Intro.mp3
///     order Album/My%20Song.mp3
///     history 3 41 Album/My%20Song.mp3
///     checksum fnv1a64 b60f86e79655e2a2
///
/// - Every line ends in "\n"; the fields of a line are separated by exactly one space.
/// - Line 1: the magic `shfl-stick-state` and `StickState.formatVersion`.
/// - One `key value` line for each scalar field: `stick`, `volume`, `play-serial`, `generator`
///   (the shuffle generator's state), `cycle`, `cursor`, `position-ms`. Each exactly once;
///   the decoder accepts them in any order.
/// - `order <path>`: one line per shuffle-order entry, in play order.
/// - `history <play count> <last play serial> <path>`: one line per history entry, in path
///   order (`TrackPath`'s `<`), so the same state always encodes to the same bytes.
/// - Last line: `checksum fnv1a64 <16 lowercase hex digits>`, the FNV-1a 64-bit hash of every
///   byte before that line. Any truncation or damaged byte is detected, never accepted.
///
/// Paths and the stick id are written as bytes: printable ASCII (0x21...0x7E) except "%" as
/// itself, every other byte as `%XX` in uppercase hex: controls, space, "%", DEL, and every
/// byte from 0x80 up, so UTF-8 names are escaped too (`R%C3%B3s`) and invalid UTF-8 round-trips
/// exactly. Only this canonical spelling decodes. Numbers are canonical decimals (no "+", no
/// leading zeros, "-" only before a non-zero value). `position` is stored in whole
/// milliseconds, truncated: a sub-millisecond remainder is dropped, so a resume starts at most
/// 1 ms early, and only whole-millisecond positions round-trip exactly.
///
/// Unknown keys are ignored (if well formed: lowercase letters, digits, "-"), for forward
/// compatibility: a newer build may add an optional key without bumping the format version,
/// and an older build still resumes the stick (it drops the key at its next save). A change
/// that an older build must not ignore needs a new `formatVersion`, which older builds reject.
///
/// Decoding checks, in this order: the first line (magic and version, so a future format is
/// reported as such), that the bytes end with a complete checksum line, the checksum, each
/// line, the required keys, and finally the rules of `validate(_:)`. Every error names the
/// line (see `StickStateCodecError`).
public enum StickStateCodec {
    /// The magic that starts line 1.
    static let magic = "shfl-stick-state"
    /// The name of the checksum algorithm on the last line.
    static let checksumAlgorithm = "fnv1a64"

    /// The keys of the format. Scalar keys appear once; `order` and `history` once per entry.
    enum Key: Hashable, CaseIterable {
        case stick, volume, playSerial, generator, cycle, cursor, positionMilliseconds
        case order, history, checksum

        var name: String {
            switch self {
            case .stick: "stick"
            case .volume: "volume"
            case .playSerial: "play-serial"
            case .generator: "generator"
            case .cycle: "cycle"
            case .cursor: "cursor"
            case .positionMilliseconds: "position-ms"
            case .order: "order"
            case .history: "history"
            case .checksum: "checksum"
            }
        }

        /// The keys that must appear exactly once.
        static let scalars: [Key] = [
            .stick, .volume, .playSerial, .generator, .cycle, .cursor, .positionMilliseconds,
        ]

        /// The key spelled `bytes`, or nil for an unknown key.
        static func named(_ bytes: ArraySlice<UInt8>) -> Key? {
            allCases.first { bytes.elementsEqual($0.name.utf8) }
        }
    }

    // MARK: Encoding

    /// The bytes of `state`, deterministic: equal states give equal bytes, whatever the
    /// insertion order of `history`. Writes any state, even one `validate(_:)` rejects (which
    /// then does not decode): a store checks `validate` before it replaces a good state.
    public static func encode(_ state: StickState) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256 + 48 * (state.order.count + state.history.count))

        output.append(contentsOf: magic.utf8)
        output.append(space)
        appendDecimal(Int64(StickState.formatVersion), to: &output)
        output.append(newline)

        appendKey(.stick, to: &output)
        appendEscaped(Array(state.stick.uuid.utf8), to: &output)
        output.append(newline)
        appendLine(.volume, Int64(state.volume), to: &output)
        appendLine(.playSerial, state.playSerial, to: &output)
        appendKey(.generator, to: &output)
        appendDecimal(state.generatorState, to: &output)
        output.append(newline)
        appendLine(.cycle, Int64(state.cycle), to: &output)
        appendLine(.cursor, Int64(state.cursor), to: &output)
        appendLine(.positionMilliseconds, milliseconds(of: state.position), to: &output)

        for path in state.order {
            appendKey(.order, to: &output)
            appendEscaped(path.bytes, to: &output)
            output.append(newline)
        }
        for path in state.history.keys.sorted() {
            guard let record = state.history[path] else { continue }
            appendKey(.history, to: &output)
            appendDecimal(Int64(record.playCount), to: &output)
            output.append(space)
            appendDecimal(record.lastPlayed, to: &output)
            output.append(space)
            appendEscaped(path.bytes, to: &output)
            output.append(newline)
        }

        let checksum = FNV1a64.hash(output[...])
        appendKey(.checksum, to: &output)
        output.append(contentsOf: checksumAlgorithm.utf8)
        output.append(space)
        appendHex16(checksum, to: &output)
        output.append(newline)
        return output
    }

    private static func appendKey(_ key: Key, to output: inout [UInt8]) {
        output.append(contentsOf: key.name.utf8)
        output.append(space)
    }

    private static func appendLine(_ key: Key, _ value: Int64, to output: inout [UInt8]) {
        appendKey(key, to: &output)
        appendDecimal(value, to: &output)
        output.append(newline)
    }

    // MARK: Decoding

    /// The state encoded in `bytes`. Throws, naming the line, for anything `encode` would not
    /// have written (truncated, damaged, unknown version, malformed) and for a state that
    /// breaks the rules of `validate(_:)`. Unknown well-formed keys are ignored.
    public static func decode(_ bytes: [UInt8]) throws(StickStateCodecError) -> StickState {
        // Cheap checks first, so that a truncated state is rejected without splitting it.
        guard !bytes.isEmpty else {
            throw StickStateCodecError(line: 1, kind: .truncated, message: "truncated: the state is empty")
        }
        let firstLineEnd = bytes.firstIndex(of: newline)
        try checkFirstLine(bytes[0..<(firstLineEnd ?? bytes.count)], isComplete: firstLineEnd != nil)
        guard bytes.last == newline else {
            let lineCount = bytes.reduce(1) { count, byte in byte == newline ? count + 1 : count }
            throw StickStateCodecError(
                line: lineCount, kind: .truncated, message: "truncated: the last line has no end of line")
        }
        let lines = lineRanges(bytes)
        let checksumLine = lines.count
        try checkChecksum(bytes, lines: lines)

        var parsed = ParsedState()
        for number in 2..<checksumLine {
            try parsed.read(bytes[lines[number - 1]], line: number)
        }
        let state = try parsed.state(endLine: checksumLine)
        try check(state, lines: parsed.lines)
        return state
    }

    /// Line 1 must be `shfl-stick-state <formatVersion>`.
    private static func checkFirstLine(
        _ line: ArraySlice<UInt8>, isComplete: Bool
    ) throws(StickStateCodecError) {
        let parts = fields(line)
        guard parts[0].elementsEqual(magic.utf8) else {
            let header = Array((magic + " ").utf8)
            if !isComplete && header.starts(with: line) {
                throw StickStateCodecError(line: 1, kind: .truncated, message: "truncated in the first line")
            }
            throw StickStateCodecError(
                line: 1, kind: .notAStickState,
                message: "not a Shfl stick state: the first line is " + quoted(line) + ", expected \""
                    + magic + " " + String(StickState.formatVersion) + "\"")
        }
        guard isComplete else {
            throw StickStateCodecError(line: 1, kind: .truncated, message: "truncated in the first line")
        }
        guard parts.count == 2 else {
            throw StickStateCodecError(
                line: 1, kind: .malformedLine,
                message: "expected \"" + magic + " <version>\", found " + quoted(line))
        }
        guard let version = parseUnsigned(parts[1]) else {
            throw badValue("format version", parts[1], line: 1)
        }
        guard version == UInt64(StickState.formatVersion) else {
            var found: [UInt8] = []
            appendDecimal(version, to: &found)
            throw StickStateCodecError(
                line: 1, kind: .unsupportedVersion,
                message: "format version " + String(decoding: found, as: UTF8.self)
                    + " is not supported (this build reads version " + String(StickState.formatVersion) + ")")
        }
    }

    /// The last line must be `checksum fnv1a64 <hex>`, matching every byte before it.
    private static func checkChecksum(
        _ bytes: [UInt8], lines: [Range<Int>]
    ) throws(StickStateCodecError) {
        let number = lines.count
        let range = lines[number - 1]
        let parts = fields(bytes[range])
        guard number >= 2, parts[0].elementsEqual(Key.checksum.name.utf8) else {
            throw StickStateCodecError(
                line: number, kind: .truncated, message: "truncated: the state does not end with its checksum line")
        }
        guard parts.count == 3, parts[1].elementsEqual(checksumAlgorithm.utf8) else {
            throw StickStateCodecError(
                line: number, kind: .malformedLine,
                message: "expected \"checksum " + checksumAlgorithm + " <16 hex digits>\", found "
                    + quoted(bytes[range]))
        }
        guard let expected = parseHex16(parts[2]) else {
            throw badValue("checksum", parts[2], line: number)
        }
        let actual = FNV1a64.hash(bytes[0..<range.lowerBound])
        guard actual == expected else {
            var shown: [UInt8] = []
            appendHex16(actual, to: &shown)
            throw StickStateCodecError(
                line: number, kind: .checksumMismatch,
                message: "checksum mismatch: the line says " + quoted(parts[2]) + ", the content hashes to \""
                    + String(decoding: shown, as: UTF8.self) + "\" (the state is damaged)")
        }
    }
}
