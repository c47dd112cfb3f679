import CSystem
import Foundation
import ShflCore
import ShflService
import ShflSystem
import Testing

/// `shfl status`, `shfl skip`, ... as a user runs them, against a test server; and the
/// client library's own limits.
@Suite struct ControlCommandTests {
    /// Runs `shfl ARGUMENTS` while turning the server's loop with `answer`.
    func shfl(_ arguments: [String], server: UnixControlServer?, answer: @escaping (ControlMessage) -> ControlReply = ControlTestSupport.echo) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MediaTestSupport.shflBinary)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let started = Date()
        while process.isRunning && Date().timeIntervalSince(started) < 20 {
            if let server { try ControlTestSupport.pump(server, waitMilliseconds: 10, answer: answer) } else { usleep(10_000) }
        }
        process.waitUntilExit()
        return (process.terminationStatus,
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func statusPrintsTheFieldsWithoutTheFinalOK() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }
        let report = StatusReport(
            state: .playing(TrackPath("a.mp3")), track: TrackPath("a.mp3"), title: "Tone", artist: "Sox",
            trackNumber: 3, trackCount: 47, position: .seconds(61), volume: 40, stick: StickID(uuid: "1A2B-3C4D")
        )
        var received: [ControlRequest] = []
        let result = try shfl(["status", "--socket", path], server: server) { message in
            if case .success(let request) = message.request { received.append(request) }
            return report.reply
        }
        #expect(result.status == 0)
        #expect(result.errors == "")
        #expect(result.output == """
            state: playing
            track: Tone \u{2014} Sox
            position: 1:01
            shuffle: 3/47
            tracks: 47/120
            stick: 1A2B-3C4D
            volume: 40
            underruns: 0

            """)
        #expect(received == [.status])
    }

    @Test func everyCommandSendsItsCanonicalRequest() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }
        let cases: [([String], String)] = [
            (["play"], "play"), (["pause"], "pause"), (["toggle"], "toggle"), (["skip"], "skip"),
            (["reshuffle"], "reshuffle"), (["capacity"], "capacity"), (["volume", "+"], "volume +"),
            (["volume", "-"], "volume -"), (["volume", "35"], "volume 35"), (["press", "vol+"], "press VOL+"),
            (["release", "Play"], "release PLAY"),
        ]
        for (arguments, line) in cases {
            let result = try shfl(arguments + ["--socket=" + path], server: server)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.output == "request: " + line + "\n", "\(arguments)")
        }
    }

    @Test func anErrorReplyGoesToStderrWithStatus1() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }
        let result = try shfl(["skip", "--socket", path], server: server) { _ in ControlReply(error: "no stick") }
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.errors == "shfl skip: no stick\n")
    }

    @Test func aDaemonThatIsNotRunningIsStatus2WithAClearMessage() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let missing = try shfl(["status", "--socket", path], server: nil)
        #expect(missing.status == 2)
        #expect(missing.errors == "shfl status: shfl is not running (no control socket at " + path + ")\n")

        // A socket file left behind by a daemon that died: nobody listens.
        let dead = try FileDescriptor.socket(.stream)
        try dead.bind(to: UnixSocketAddress(path)!)
        dead.close()
        let refused = try shfl(["toggle", "--socket", path], server: nil)
        #expect(refused.status == 2)
        #expect(refused.errors == "shfl toggle: shfl is not running (nothing listens on " + path + ")\n")
    }

    @Test func aBadRequestIsAUsageErrorBeforeAnythingIsSent() throws {
        let usage = try shfl(["volume", "loud", "--socket", "/nonexistent/control"], server: nil)
        #expect(usage.status == 2)
        #expect(usage.errors.hasPrefix("shfl volume: bad volume 'loud' (expected +, - or a number from 0 to 100)\nusage: shfl status|"))
        #expect(try shfl(["press"], server: nil).errors.hasPrefix("shfl press: press needs an argument: a button"))
        #expect(try shfl(["status", "--socket"], server: nil).errors.hasPrefix("shfl status: --socket needs a value"))
    }

    @Test func theClientGivesUpOnADaemonThatNeverReplies() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)  // listening, but its loop never turns
        defer { server.close() }
        let started = Date()
        let result = UnixControlClient.send(.status, to: path, timeoutMilliseconds: 200)
        #expect(result == .failure(.noReply(milliseconds: 200)))
        // It gave up (a client that waits for ever would hang here); how soon is its timeout's
        // business, and a busy machine only adds to it.
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(ControlClientError.noReply(milliseconds: 200).description == "no reply from shfl within 200 ms")
    }
}
