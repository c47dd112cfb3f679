import ShflCore
import Testing

/// The control socket's request lines (issue 6): every request, and every way a line can be
/// wrong, with the reason the client will read.
@Suite struct ControlRequestTests {
    func parse(_ line: String) -> Result<ControlRequest, ControlError> {
        do {
            return .success(try ControlRequest(parsing: line))
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [
        ("status", ControlRequest.status),
        ("play", .play),
        ("pause", .pause),
        ("toggle", .toggle),
        ("skip", .skip),
        ("reshuffle", .reshuffle),
        ("capacity", .capacity),
        ("volume +", .volume(.up)),
        ("volume -", .volume(.down)),
        ("volume 0", .volume(.set(0))),
        ("volume 42", .volume(.set(42))),
        ("volume 100", .volume(.set(100))),
        ("volume 007", .volume(.set(7))),
        ("press PLAY", .press(.play)),
        ("press skip", .press(.skip)),
        ("press Vol+", .press(.volumeUp)),
        ("release VOL-", .release(.volumeDown)),
        ("release play", .release(.play)),
        // Case-insensitive command words, whitespace around and between words ignored.
        ("STATUS", .status),
        ("  Skip  ", .skip),
        ("\tVoLuMe \t +\t", .volume(.up)),
        ("toggle\r", .toggle),
        ("PRESS   SKIP\r\n", .press(.skip)),
    ])
    func parsesEveryRequest(line: String, expected: ControlRequest) {
        #expect(parse(line) == .success(expected))
    }

    @Test func everyRequestsCanonicalLineParsesBackToIt() {
        var requests: [ControlRequest] = [.status, .play, .pause, .toggle, .skip, .reshuffle, .capacity, .volume(.up), .volume(.down)]
        requests += (0...100).map { .volume(.set($0)) }
        for button in Button.allCases { requests += [.press(button), .release(button)] }
        for request in requests {
            #expect(parse(request.line) == .success(request), "\(request.line)")
        }
        #expect(ControlRequest.volume(.up).line == "volume +")
        #expect(ControlRequest.press(.volumeDown).line == "press VOL-")
    }

    @Test(arguments: [
        ("", ControlError.emptyRequest),
        ("   \t \r", .emptyRequest),
        ("dance", .unknownCommand("dance")),
        ("stat", .unknownCommand("stat")),
        ("play-file x", .unknownCommand("play-file")),
        ("volume", .missingArgument(command: "volume", expected: "+, - or a number from 0 to 100")),
        ("volume 101", .badVolume("101")),
        ("volume 1000", .badVolume("1000")),
        ("volume -5", .badVolume("-5")),
        ("volume +5", .badVolume("+5")),
        ("volume 1.5", .badVolume("1.5")),
        ("volume 0x10", .badVolume("0x10")),
        ("volume loud", .badVolume("loud")),
        ("volume ++", .badVolume("++")),
        ("press", .missingArgument(command: "press", expected: "a button: PLAY, SKIP, VOL+ or VOL-")),
        ("RELEASE", .missingArgument(command: "release", expected: "a button: PLAY, SKIP, VOL+ or VOL-")),
        ("press JUMP", .unknownButton("JUMP")),
        ("release 1", .unknownButton("1")),
        ("status now", .unexpectedArgument(command: "status", argument: "now")),
        ("skip 2", .unexpectedArgument(command: "skip", argument: "2")),
        ("volume + +", .unexpectedArgument(command: "volume", argument: "+")),
        ("press PLAY SKIP", .unexpectedArgument(command: "press", argument: "SKIP")),
        ("capacity please now", .unexpectedArgument(command: "capacity", argument: "please")),
    ])
    func refusesAMalformedLine(line: String, expected: ControlError) {
        #expect(parse(line) == .failure(expected))
    }

    @Test func aLineOverTheLimitIsRefusedAndOneAtTheLimitIsNot() {
        let padded = "status" + String(repeating: " ", count: ControlRequest.maximumLineLength - 6)
        #expect(Array(padded.utf8).count == 512)
        #expect(parse(padded) == .success(.status))
        #expect(parse(padded + " ") == .failure(.lineTooLong(limit: 512)))
        #expect(parse(String(repeating: "x", count: 10_000)) == .failure(.lineTooLong(limit: 512)))
    }

    @Test func reasonsNameWhatWasWrong() {
        #expect(ControlError.unknownCommand("dance").description
            == "unknown command 'dance' (expected one of: status, play, pause, toggle, skip, reshuffle, volume, press, release, capacity)")
        #expect(ControlError.emptyRequest.description.hasPrefix("empty request (expected one of: status, play"))
        #expect(ControlError.badVolume("loud").description == "bad volume 'loud' (expected +, - or a number from 0 to 100)")
        #expect(ControlError.unknownButton("JUMP").description == "unknown button 'JUMP' (expected PLAY, SKIP, VOL+ or VOL-)")
        #expect(ControlError.unexpectedArgument(command: "status", argument: "now").description == "unexpected argument 'now' after status")
        #expect(ControlError.missingArgument(command: "volume", expected: "+, - or a number from 0 to 100").description
            == "volume needs an argument: +, - or a number from 0 to 100")
        #expect(ControlError.lineTooLong(limit: 512).description == "request longer than 512 bytes")
    }

    @Test func quotedWordsArePrintableAndShort() throws {
        // Control characters (an escape sequence, a NUL) cannot reach the client's terminal.
        #expect(parse("\u{1B}[2J\u{0}x") == .failure(.unknownCommand("?[2J?x")))
        // Bytes that are not UTF-8 are shown as U+FFFD.
        let invalid: [UInt8] = [0x70, 0xFF, 0x79]
        #expect(throws: ControlError.unknownCommand("p\u{FFFD}y")) { try ControlRequest(parsing: invalid) }
        // A long word is cut to 40 bytes, "…" included.
        guard case .failure(.unknownCommand(let word)) = parse(String(repeating: "é", count: 100)) else {
            Issue.record("expected unknownCommand")
            return
        }
        #expect(word.utf8.count <= 40)
        #expect(word.hasSuffix("\u{2026}"))
        #expect(word.hasPrefix("éééé"))
    }

    @Test func playAndPauseChangeOnlyWhatNeedsChanging() {
        func action(_ request: ControlRequest, _ stateName: String) -> ControlAction {
            request.action(in: PlayerFixture.player(in: stateName).state)
        }
        #expect(action(.play, "stopped") == .input(.playPause))
        #expect(action(.play, "paused") == .input(.playPause))
        #expect(action(.play, "error") == .input(.playPause))
        #expect(action(.play, "playing") == .nothing)
        #expect(action(.play, "loading") == .nothing)
        #expect(action(.play, "empty") == .nothing)
        #expect(ControlRequest.play.action(in: .error(.stickUnusable(reason: "sda1: bad superblock"))) == .nothing)
        #expect(action(.pause, "playing") == .input(.playPause))
        for state in ["empty", "stopped", "loading", "paused", "error"] {
            #expect(action(.pause, state) == .nothing, "\(state)")
        }
        for state in PlayerFixture.stateNames {
            #expect(action(.toggle, state) == .input(.playPause))
            #expect(action(.skip, state) == .input(.skip))
            #expect(action(.reshuffle, state) == .input(.reshuffle))
            #expect(action(.volume(.set(30)), state) == .input(.volume(.set(30))))
            #expect(action(.status, state) == .report)
            #expect(action(.capacity, state) == .capacity)
            #expect(action(.press(.skip), state) == .button(.skip, .pressed))
            #expect(action(.release(.play), state) == .button(.play, .released))
        }
    }

    @Test func playingFromPauseThroughTheActionResumesThePlayer() {
        var player = PlayerFixture.player(in: "paused")
        guard case .input(let input) = ControlRequest.play.action(in: player.state) else {
            Issue.record("expected an input")
            return
        }
        _ = player.handle(input)
        #expect(player.state.name == "playing")
        #expect(ControlRequest.play.action(in: player.state) == .nothing)
    }
}
