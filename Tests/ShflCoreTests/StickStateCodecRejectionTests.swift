import ShflCore
import Testing

/// Nonsense is rejected with an error naming the line, ready for the log.
@Suite struct StickStateCodecRejectionTests {
    // Line numbers in an encoded state: the scalars come in this fixed order.
    static let volumeLine = 3, playSerialLine = 4, cycleLine = 6, cursorLine = 7, positionLine = 8
    static let firstOrderLine = 9

    /// A valid three-track state to spoil.
    static var base: StickState {
        StickState(
            stick: StickStateSamples.stick,
            order: [TrackPath("a.mp3"), TrackPath("b.mp3"), TrackPath("c.mp3")],
            cursor: 1,
            position: .milliseconds(500),
            cycle: 1,
            generatorState: 12,
            volume: 70,
            history: [TrackPath("a.mp3"): PlayRecord(playCount: 1, lastPlayed: 1)],
            playSerial: 1
        )
    }

    /// The error decoding `bytes` gives; records an issue when they decode.
    func decodeError(
        _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) -> StickStateCodecError? {
        do {
            let state = try StickStateCodec.decode(bytes)
            Issue.record("decoded to a state for stick \(state.stick)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// Encodes `state` (whose bytes are intact) and expects decoding and `validate` to reject
    /// it with `kind`, decoding on `line`.
    func expectRejected(
        _ state: StickState, kind: StickStateCodecError.Kind, line: Int, mentioning words: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = decodeError(StickStateCodec.encode(state), sourceLocation: sourceLocation) else { return }
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("line \(line): "), sourceLocation: sourceLocation)
        for word in words {
            #expect(error.description.contains(word), "\(error)", sourceLocation: sourceLocation)
        }
        do {
            try StickStateCodec.validate(state)
            Issue.record("validate accepted it", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind && error.line == nil, sourceLocation: sourceLocation)
            #expect(!error.description.hasPrefix("line"), sourceLocation: sourceLocation)
        }
    }

    /// `base`'s encoded lines with `change` applied, sealed with a correct checksum.
    func crafted(_ change: (inout [String]) -> Void) -> [UInt8] {
        var lines = StickStateSamples.bodyLines(StickStateCodec.encode(Self.base))
        change(&lines)
        return StickStateSamples.sealed(lines: lines)
    }

    @Test func baseIsValid() throws {
        try StickStateCodec.validate(Self.base)
        #expect(try StickStateCodec.decode(StickStateCodec.encode(Self.base)) == Self.base)
        #expect(StickStateSamples.bodyLines(StickStateCodec.encode(Self.base))[Self.cursorLine - 1] == "cursor 1")
    }

    // MARK: Values out of range

    @Test func cursorOutOfTheOrderIsRejected() {
        var state = Self.base
        state.cursor = 3
        expectRejected(state, kind: .outOfRange, line: Self.cursorLine, mentioning: ["cursor 3", "3 tracks"])
        state.cursor = -1
        expectRejected(state, kind: .outOfRange, line: Self.cursorLine, mentioning: ["cursor -1"])
    }

    @Test func emptyOrderNeedsCursorZero() throws {
        var state = Self.base
        state.order = []
        state.cursor = 0
        #expect(try StickStateCodec.decode(StickStateCodec.encode(state)) == state)
        state.cursor = 1
        expectRejected(state, kind: .outOfRange, line: Self.cursorLine, mentioning: ["cursor 1", "empty order"])
    }

    @Test func negativeCountsAreRejected() {
        var state = Self.base
        state.cycle = -1
        expectRejected(state, kind: .outOfRange, line: Self.cycleLine, mentioning: ["cycle -1"])
        state = Self.base
        state.playSerial = -5
        expectRejected(state, kind: .outOfRange, line: Self.playSerialLine, mentioning: ["play serial -5"])
        state = Self.base
        state.position = .milliseconds(-20)
        expectRejected(state, kind: .outOfRange, line: Self.positionLine, mentioning: ["position -20ms"])
        state = Self.base
        state.history[TrackPath("b.mp3")] = PlayRecord(playCount: -2, lastPlayed: 0)
        expectRejected(
            state, kind: .outOfRange, line: Self.firstOrderLine + 4, mentioning: ["play count -2", "\"b.mp3\""])
        state = Self.base
        state.history[TrackPath("a.mp3")] = PlayRecord(playCount: 0, lastPlayed: -1)
        expectRejected(
            state, kind: .outOfRange, line: Self.firstOrderLine + 3, mentioning: ["last play serial -1", "a.mp3"])
    }

    @Test func volumeOutside0To100IsRejected() {
        var state = Self.base
        state.volume = 101
        expectRejected(state, kind: .outOfRange, line: Self.volumeLine, mentioning: ["volume 101", "0...100"])
        state.volume = -1
        expectRejected(state, kind: .outOfRange, line: Self.volumeLine, mentioning: ["volume -1"])
    }

    @Test func duplicateOrderEntriesAreRejected() {
        var state = Self.base
        state.order.append(TrackPath("a.mp3"))
        expectRejected(
            state, kind: .duplicateTrack, line: Self.firstOrderLine + 3,
            mentioning: ["\"a.mp3\"", "twice", "first on line \(Self.firstOrderLine)"])
    }

    // MARK: Malformed lines (hand-crafted, with a correct checksum)

    @Test func badNumbersNameTheLineAndTheValue() {
        let bytes = crafted { $0[Self.cursorLine - 1] = "cursor x" }
        #expect(decodeError(bytes)?.description == "line 7: bad cursor \"x\"")
        for value in ["", "01", "+1", "-0", "1.5", "0x1", "99999999999999999999", "1 "] {
            let error = decodeError(crafted { $0[Self.cursorLine - 1] = "cursor " + value })
            #expect(error?.line == Self.cursorLine, "\(value)")
            #expect(error?.kind == (value == "1 " ? .malformedLine : .badValue), "\(value)")
        }
        let generator = decodeError(crafted { $0[4] = "generator 18446744073709551616" })
        #expect(generator?.line == 5 && generator?.kind == .badValue)
        let history = decodeError(crafted { $0[Self.firstOrderLine + 2] = "history one 1 a.mp3" })
        #expect(history?.description == "line 12: bad play count \"one\"")
    }

    @Test func unknownVersionSaysWhichVersionWasFound() {
        let bytes = crafted { $0[0] = "shfl-stick-state 2" }
        let error = decodeError(bytes)
        #expect(error?.kind == .unsupportedVersion)
        #expect(error?.description == "line 1: format version 2 is not supported (this build reads version 1)")
        // A future format may use another checksum: its version is reported, not a mismatch.
        var unsealed = Array("shfl-stick-state 3\nnew things\nchecksum sha256 00\n".utf8)
        #expect(decodeError(unsealed)?.kind == .unsupportedVersion)
        unsealed = Array("shfl-stick-state 0\n".utf8)
        #expect(decodeError(unsealed)?.kind == .unsupportedVersion)
    }

    @Test func otherFilesAreNotStickStates() {
        let error = decodeError(Array("[player]\nvolume = 3\n".utf8))
        #expect(error?.kind == .notAStickState)
        #expect(error?.line == 1)
        #expect(error?.description.contains("\"[player]\"") == true)
        #expect(decodeError(Array("shfl-stick-state\n".utf8))?.kind == .malformedLine)
        #expect(decodeError(Array("shfl-stick-state 1 2\n".utf8))?.kind == .malformedLine)
        #expect(decodeError(Array("shfl-stick-state 1\r\n".utf8))?.kind == .badValue)  // CRLF
    }

    @Test func missingKeysAreNamed() {
        let keys = ["stick", "volume", "play-serial", "generator", "cycle", "cursor", "position-ms"]
        for (index, key) in keys.enumerated() {
            let bytes = crafted { $0.remove(at: index + 1) }
            let error = decodeError(bytes)
            #expect(error?.kind == .missingKey, "\(key)")
            // Reported where the state ended without it: the checksum line.
            let checksumLine = 1 + 6 + 3 + 1 + 1
            #expect(error?.description.hasPrefix("line \(checksumLine): missing key \"\(key)\"") == true, "\(key)")
        }
    }

    @Test func duplicateKeysAndHistoryLinesAreRejected() {
        let volume = decodeError(crafted { $0.append("volume 70") })
        #expect(volume?.kind == .duplicateKey)
        #expect(volume?.description == "line 13: duplicate key \"volume\" (first on line 3)")
        let history = decodeError(crafted { $0.append("history 5 1 a.mp3") })
        #expect(history?.kind == .duplicateTrack)
        #expect(history?.line == 13)
        #expect(history?.description.contains("first on line 12") == true)
    }

    @Test func malformedLinesAreRejected() {
        let cases: [(String, StickStateCodecError.Kind)] = [
            ("", .malformedLine),  // empty line
            ("Cursor 1", .malformedLine),  // keys are lowercase
            ("-x 1", .malformedLine),
            ("order a.mp3 b.mp3", .malformedLine),  // a raw space in a path
            ("order", .malformedLine),
            ("history 1 a.mp3", .malformedLine),
            ("checksum fnv1a64 0000000000000000", .malformedLine),  // not at the end
            ("order d%4", .badValue),
            ("order d%zz", .badValue),
            ("order d%0a", .badValue),  // escapes are uppercase
            ("order d%41", .badValue),  // "A" needs no escape: not canonical
            ("order d\u{7F}", .badValue),  // raw DEL
            ("order d\t", .badValue),  // raw tab
            ("order dé", .badValue),  // raw UTF-8: bytes from 0x80 up are escaped
        ]
        for (line, kind) in cases {
            let error = decodeError(crafted { $0.insert(line, at: 9) })
            #expect(error?.kind == kind, "\(line)")
            #expect(error?.line == 10, "\(line)")
        }
    }

    @Test func stickIDMustBeUTF8() {
        let error = decodeError(crafted { $0[1] = "stick AB%FF" })
        #expect(error?.kind == .badValue)
        #expect(error?.description == "line 2: stick id \"AB%FF\" is not valid UTF-8")
    }

    @Test func checksumProblemsAreReported() {
        var bytes = StickStateCodec.encode(Self.base)
        let lastLine = 13
        bytes[bytes.count - 2] = bytes[bytes.count - 2] == 0x30 ? 0x31 : 0x30
        let mismatch = decodeError(bytes)
        #expect(mismatch?.kind == .checksumMismatch)
        #expect(mismatch?.line == lastLine)

        bytes = StickStateCodec.encode(Self.base)
        bytes.removeLast(34)  // the whole checksum line: truncated at a line boundary
        #expect(decodeError(bytes)?.kind == .truncated)
        #expect(decodeError(bytes)?.line == lastLine - 1)

        bytes = StickStateCodec.encode(Self.base)
        bytes.removeLast(17)
        bytes += Array("ABCDEF0123456789\n".utf8)  // uppercase hex is not the canonical spelling
        #expect(decodeError(bytes)?.kind == .badValue)
    }

    @Test func emptyAndUnterminatedBytesAreTruncations() {
        let empty = decodeError([])
        #expect(empty?.description == "line 1: truncated: the state is empty")
        var bytes = StickStateCodec.encode(Self.base)
        bytes.removeLast()
        let unterminated = decodeError(bytes)
        #expect(unterminated?.kind == .truncated)
        #expect(unterminated?.line == 13)
    }

    @Test func longValuesAreCutInMessages() {
        let path = String(repeating: "x", count: 300)
        let error = decodeError(crafted { $0[Self.cursorLine - 1] = "cursor " + path })
        #expect((error?.description.utf8.count ?? 0) < 100)
        #expect(error?.description.hasSuffix("...\"") == true)
    }
}
