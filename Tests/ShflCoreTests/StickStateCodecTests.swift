import ShflCore
import Testing

/// States and helpers shared by the codec suites.
enum StickStateSamples {
    static let stick = StickID(uuid: "1A2B-3C4D")

    /// A path for track `index`, with spaces and a digit-heavy name like real libraries.
    static func track(_ index: Int) -> TrackPath {
        TrackPath("Artist " + String(index % 7) + "/Album " + String(index % 13) + "/" + String(index) + " Song.mp3")
    }

    /// A full stick: 120-track order, `historyCount` history entries, every scalar far from 0.
    static func full(historyCount: Int = 5_000, seed: UInt64 = 7) -> StickState {
        var generator = SeededGenerator(seed: seed)
        var order = (0..<120).map(track)
        order.shuffle(using: &generator)
        var history: [TrackPath: PlayRecord] = [:]
        for index in 0..<historyCount {
            let path = TrackPath("Old/" + String(index) + "/t" + String(generator.next(below: 1000)) + ".mp3")
            history[path] = PlayRecord(
                playCount: generator.next(below: 1_000), lastPlayed: Int64(generator.next(below: 1_000_000)))
        }
        return StickState(
            stick: stick,
            order: order,
            cursor: 119,
            position: .milliseconds(3_723_456),
            cycle: 41,
            generatorState: UInt64.max - 2,
            volume: 100,
            history: history,
            playSerial: Int64.max - 1
        )
    }

    /// Track names a filesystem may really hold, each a trap for a text format.
    static let nastyPaths: [TrackPath] = [
        TrackPath("line\nbreak.mp3"),
        TrackPath("carriage\rreturn.mp3"),
        TrackPath("crlf\r\n.mp3"),
        TrackPath("tab\there.mp3"),
        TrackPath(" spaces at both ends "),
        TrackPath("two  spaces.mp3"),
        TrackPath("100% pure %41 %%.mp3"),
        TrackPath("Sigur Rós/Ágætis byrjun 🎵.mp3"),
        TrackPath(bytes: [0x61, 0xFF, 0xFE, 0x62]),  // invalid UTF-8
        TrackPath(bytes: [0xC0, 0x80, 0x80, 0xE2, 0x82]),  // overlong, stray, cut-short UTF-8
        TrackPath(bytes: [0x00, 0x7F, 0x1B, 0x5B, 0x32, 0x4A]),  // NUL, DEL, an escape sequence
        TrackPath(bytes: Array(0...255)),  // every byte value
        TrackPath("history 1 2 order checksum fnv1a64 0000000000000000"),
        TrackPath("dir/" + String(repeating: "n", count: 251)),  // a 255-byte name
        TrackPath(bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),  // 4 KiB
        TrackPath(""),
    ]

    /// A state whose order and history hold every nasty path.
    static var nasty: StickState {
        var history: [TrackPath: PlayRecord] = [:]
        for (index, path) in nastyPaths.enumerated() {
            history[path] = PlayRecord(playCount: index, lastPlayed: Int64(index * 3))
        }
        return StickState(
            stick: StickID(uuid: "weird id\n% é"),
            order: nastyPaths,
            cursor: nastyPaths.count - 1,
            position: .milliseconds(1),
            cycle: 0,
            generatorState: 0,
            volume: 0,
            history: history,
            playSerial: 99
        )
    }

    /// The FNV-1a 64-bit hash, written again here so the tests check the documented format
    /// rather than the codec's own helper.
    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    /// `body` (whole lines, "\n"-terminated) followed by its correct checksum line, so a test
    /// can hand-craft states that get past the checksum.
    static func sealed(_ body: String) -> [UInt8] {
        var bytes = Array(body.utf8)
        let hash = fnv1a64(bytes)
        var hex = String(hash, radix: 16)
        hex = String(repeating: "0", count: 16 - hex.count) + hex
        bytes += Array(("checksum fnv1a64 " + hex + "\n").utf8)
        return bytes
    }

    /// The lines of an encoded state before its checksum line, each without "\n".
    static func bodyLines(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // after the final "\n"
        lines.removeLast()  // the checksum line
        return lines
    }

    /// `lines` joined with "\n" after each, then sealed.
    static func sealed(lines: [String]) -> [UInt8] {
        sealed(lines.map { $0 + "\n" }.joined())
    }
}

@Suite struct StickStateCodecTests {
    @Test func fullStateRoundTrips() throws {
        let state = StickStateSamples.full()
        let bytes = StickStateCodec.encode(state)
        #expect(try StickStateCodec.decode(bytes) == state)
    }

    @Test func nastyPathsRoundTripExactly() throws {
        let state = StickStateSamples.nasty
        let decoded = try StickStateCodec.decode(StickStateCodec.encode(state))
        #expect(decoded == state)
        #expect(decoded.order.map(\.bytes) == StickStateSamples.nastyPaths.map(\.bytes))
    }

    @Test func encodedStateIsPrintableASCIILines() {
        let bytes = StickStateCodec.encode(StickStateSamples.nasty)
        #expect(bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A })
        // One line per scalar, per order entry, per history entry, plus magic and checksum.
        let lineCount = bytes.filter { $0 == 0x0A }.count
        #expect(lineCount == 1 + 7 + 2 * StickStateSamples.nastyPaths.count + 1)
    }

    @Test func emptyStateRoundTrips() throws {
        let state = StickState(stick: StickStateSamples.stick)
        #expect(try StickStateCodec.decode(StickStateCodec.encode(state)) == state)
    }

    @Test func formatIsTheDocumentedText() throws {
        let state = StickState(
            stick: StickStateSamples.stick,
            order: [TrackPath("Album/Intro.mp3"), TrackPath("Album/My Song.mp3")],
            cursor: 1,
            position: .milliseconds(81_250),
            cycle: 2,
            generatorState: 11_400_714_819_323_198_485,
            volume: 50,
            history: [TrackPath("Album/My Song.mp3"): PlayRecord(playCount: 3, lastPlayed: 41)],
            playSerial: 42
        )
        let body = """
            shfl-stick-state 1
            stick 1A2B-3C4D
            volume 50
            play-serial 42
            generator 11400714819323198485
            cycle 2
            cursor 1
            position-ms 81250
            order Album/Intro.mp3
            order Album/My%20Song.mp3
            history 3 41 Album/My%20Song.mp3

            """
        #expect(StickStateCodec.encode(state) == StickStateSamples.sealed(body))
        #expect(StickStateSamples.sealed(body).suffix(34) == Array("checksum fnv1a64 b60f86e79655e2a2\n".utf8))
        #expect(try StickStateCodec.decode(StickStateSamples.sealed(body)) == state)
    }

    @Test func pathsEscapeEveryByteButPrintableASCII() {
        let state = StickState(
            stick: StickID(uuid: "a b"), order: [TrackPath(bytes: [0x20, 0x25, 0x0A, 0x7F, 0xC3, 0xA9, 0x21, 0x7E])])
        let lines = StickStateSamples.bodyLines(StickStateCodec.encode(state))
        #expect(lines.contains("stick a%20b"))
        #expect(lines.contains("order %20%25%0A%7F%C3%A9!~"))
    }

    @Test func encodingIgnoresHistoryInsertionOrder() {
        let state = StickStateSamples.full(historyCount: 2_000)
        let paths = Array(state.history.keys)
        var reversed: [TrackPath: PlayRecord] = [:]
        for path in paths.reversed() { reversed[path] = state.history[path] }
        var roomy: [TrackPath: PlayRecord] = [:]
        roomy.reserveCapacity(50_000)
        var generator = SeededGenerator(seed: 99)
        for path in paths.shuffled(using: &generator) { roomy[path] = state.history[path] }

        let expected = StickStateCodec.encode(state)
        var other = state
        other.history = reversed
        #expect(StickStateCodec.encode(other) == expected)
        other.history = roomy
        #expect(StickStateCodec.encode(other) == expected)
    }

    @Test func historyIsWrittenInPathOrder() {
        let state = StickStateSamples.full(historyCount: 300)
        let historyLines = StickStateSamples.bodyLines(StickStateCodec.encode(state)).filter {
            $0.hasPrefix("history ")
        }
        #expect(historyLines.count == 300)
        let paths = historyLines.map { line in
            TrackPath(String(line.split(separator: " ", maxSplits: 3)[3]))  // sample paths need no escapes
        }
        #expect(paths == paths.sorted())
    }

    @Test func positionIsTruncatedToWholeMilliseconds() throws {
        var state = StickState(stick: StickStateSamples.stick, position: .nanoseconds(1_999_999))
        #expect(try StickStateCodec.decode(StickStateCodec.encode(state)).position == .milliseconds(1))
        state.position = .microseconds(999)
        #expect(try StickStateCodec.decode(StickStateCodec.encode(state)).position == .zero)
    }

    @Test func unknownKeysAreIgnored() throws {
        let state = StickStateSamples.nasty
        var lines = StickStateSamples.bodyLines(StickStateCodec.encode(state))
        lines.insert("replay-gain -6 dB", at: 3)
        lines.append("future-field")
        lines.append("x2 %%% not even escaped")
        #expect(try StickStateCodec.decode(StickStateSamples.sealed(lines: lines)) == state)
    }

    @Test func scalarLinesMayComeInAnyOrder() throws {
        let state = StickStateSamples.full(historyCount: 10)
        var lines = StickStateSamples.bodyLines(StickStateCodec.encode(state))
        let scalars = lines[1...7]
        lines.removeSubrange(1...7)
        lines.append(contentsOf: scalars.reversed())
        #expect(try StickStateCodec.decode(StickStateSamples.sealed(lines: lines)) == state)
    }
}
