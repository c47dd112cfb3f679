import ShflCore
import Testing

/// Replies on the control socket: how they are written, and how a client reads them back.
@Suite struct ControlReplyTests {
    @Test func aSuccessfulReplyIsItsFieldsThenOK() {
        let reply = ControlReply(fields: [ControlReply.Field("state", "playing"), ControlReply.Field("volume", "40")])
        #expect(reply.text == "state: playing\nvolume: 40\nok\n")
        #expect(reply.bytes == Array("state: playing\nvolume: 40\nok\n".utf8))
        #expect(ControlReply().text == "ok\n")
        #expect(reply.isOK)
    }

    @Test func aFailedReplyIsOneErrorLine() {
        #expect(ControlReply(error: .badVolume("loud")).text == "error: bad volume 'loud' (expected +, - or a number from 0 to 100)\n")
        #expect(ControlReply(error: "no stick\nok").text == "error: no stick?ok\n")
        #expect(!ControlReply(error: "x").isOK)
    }

    @Test func noFieldLineCanEndAReplyEarly() {
        // Keys: lower-case letters, digits, "-"; "error" is reserved for the final line.
        #expect(ControlReply.Field("error", "x").description == "error-detail: x")
        #expect(ControlReply.Field("Track Name", "x").description == "track-name: x")
        #expect(ControlReply.Field("", "x").description == "field: x")
        // A value is one line: a title with a newline (user data from a stick) cannot forge "ok".
        #expect(ControlReply.Field("track", "Song\nok\r\u{7F}\u{2028}").description == "track: Song?ok???")
    }

    @Test func aLongValueIsCutAtACharacterBoundary() {
        let value = ControlReply.Field("track", String(repeating: "ü", count: 1_000)).value
        #expect(value.utf8.count <= ControlReply.maximumValueBytes)
        #expect(value.utf8.count > ControlReply.maximumValueBytes - 4)
        #expect(value.hasSuffix("\u{2026}"))
        #expect(value.dropLast().allSatisfy { $0 == "ü" })
        let fits = String(repeating: "a", count: ControlReply.maximumValueBytes)
        #expect(ControlReply.Field("track", fits).value == fits)
    }

    @Test func theReaderGetsBackWhatWasSentEvenOneByteAtATime() throws {
        let sent = ControlReply(fields: [
            ControlReply.Field("state", "playing"),
            ControlReply.Field("track", "Blue in Green \u{2014} Miles Davis"),
            ControlReply.Field("note", "a: b"),
        ])
        var reader = ControlReplyReader()
        var received: ControlReply?
        for byte in sent.bytes {
            #expect(received == nil)
            received = try reader.append([byte])
        }
        #expect(received == sent)

        var errorReader = ControlReplyReader()
        #expect(try errorReader.append(Array("error: no stick\n".utf8)) == ControlReply(error: "no stick"))
    }

    @Test func theReaderStopsAtTheFinalLineAndRefusesGarbage() throws {
        var reader = ControlReplyReader()
        let reply = try reader.append(Array("volume: 40\nok\nstate: playing\nok\n".utf8))
        #expect(reply == ControlReply(fields: [ControlReply.Field("volume", "40")]))

        var partial = ControlReplyReader()
        #expect(try partial.append(Array("state: play".utf8)) == nil)
        #expect(try partial.append(Array("ing\n".utf8)) == nil)

        var garbage = ControlReplyReader()
        #expect(throws: ControlReplyError.malformedLine("HTTP/1.1 400 Bad Request")) {
            try garbage.append(Array("HTTP/1.1 400 Bad Request\n".utf8))
        }
        var endless = ControlReplyReader()
        #expect(throws: ControlReplyError.lineTooLong(limit: ControlReplyReader.maximumLineLength)) {
            try endless.append([UInt8](repeating: 0x61, count: 5_000))
        }
        var many = ControlReplyReader()
        #expect(throws: ControlReplyError.tooManyFields(limit: ControlReplyReader.maximumFields)) {
            try many.append(Array(String(repeating: "k: v\n", count: 100).utf8))
        }
    }

    @Test func theLineBufferSplitsLinesAndReportsAnOverlongOneOnce() {
        var buffer = ControlLineBuffer(limit: 8)
        #expect(buffer.append(Array("sta".utf8)) == [])
        #expect(buffer.hasPartialLine)
        #expect(buffer.append(Array("tus\nskip\r\nvol".utf8)) == [.complete(Array("status".utf8)), .complete(Array("skip\r".utf8))])
        #expect(buffer.pending == Array("vol".utf8))
        // Reported as soon as the ninth byte comes, not at the "\n"; the rest of it is dropped.
        #expect(buffer.append(Array("ume + 12".utf8)) == [.tooLong])
        #expect(buffer.pending.isEmpty)
        #expect(buffer.append(Array(String(repeating: "x", count: 100).utf8)) == [])
        #expect(buffer.append(Array("x\nplay\n".utf8)) == [.complete(Array("play".utf8))])
        #expect(!buffer.hasPartialLine)
        // Exactly at the limit is fine.
        #expect(buffer.append(Array("12345678\n".utf8)) == [.complete(Array("12345678".utf8))])
    }
}
