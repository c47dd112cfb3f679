import CSystem
import Foundation
import ShflCore
import ShflService
import ShflSystem
import Testing

/// The control socket's server against real sockets: concurrent clients, partial and
/// overlong lines, clients that vanish, hang or flood, and the socket file itself.
@Suite struct UnixControlServerTests {
    @Test func twoClientsEachGetTheirOwnReplies() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        let first = try RawControlClient(path)
        let second = try RawControlClient(path)
        try first.send("status\nvolume +\n")
        try second.send("SKIP\n")
        let messages = try ControlTestSupport.pump(server)
        #expect(server.clientCount == 2)
        #expect(messages.count == 3)
        #expect(Set(messages.map(\.client)).count == 2)

        #expect(try first.receive().text == "request: status\nok\nrequest: volume +\nok\n")
        #expect(try second.receive().text == "request: skip\nok\n")
    }

    @Test func aPartialLineWaitsForItsEnd() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        let client = try RawControlClient(path)
        try client.send("pre")
        #expect(try ControlTestSupport.pump(server).isEmpty)
        try client.send("ss vol")
        #expect(try ControlTestSupport.pump(server).isEmpty)
        try client.send("+\r\nbad\n")
        let messages = try ControlTestSupport.pump(server)
        #expect(messages.map { $0.request } == [.success(.press(.volumeUp)), .failure(.unknownCommand("bad"))])
        let reply = try client.receive()
        #expect(reply.text.hasPrefix("request: press VOL+\nok\nerror: unknown command 'bad' (expected one of: status,"))
        #expect(!reply.closed)
    }

    @Test func anOverlongLineGetsAnErrorAndTheConnectionIsClosed() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        let client = try RawControlClient(path)
        // The request before it is answered first; nothing after it is read.
        try client.send("status\n" + String(repeating: "a", count: 600) + "\nskip\n")
        let messages = try ControlTestSupport.pump(server)
        #expect(messages.map { $0.request } == [.success(.status), .failure(.lineTooLong(limit: 512))])
        let reply = try client.receive(closeWithinMilliseconds: 5_000)
        #expect(reply.text == "request: status\nok\nerror: request longer than 512 bytes\n")
        #expect(reply.closed)
        #expect(server.clientCount == 0)
        #expect(server.takeNotes().map(\.description) == ["<4>control: client 1 sent a line longer than 512 bytes; closing it"])

        // A line of exactly 512 bytes is still a request.
        let fine = try RawControlClient(path)
        try fine.send("status" + String(repeating: " ", count: 506) + "\n")
        #expect(try ControlTestSupport.pump(server).map { $0.request } == [.success(.status)])
    }

    @Test func anEndlessLineIsCutOffWithoutItsNewline() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        let client = try RawControlClient(path)
        _ = client.sendWithoutBlocking([UInt8](repeating: 0x61, count: 100_000))
        let messages = try ControlTestSupport.pump(server)
        #expect(messages.map { $0.request } == [.failure(.lineTooLong(limit: 512))])
        let reply = try client.receive(closeWithinMilliseconds: 5_000)
        #expect(reply.text == "error: request longer than 512 bytes\n")
        #expect(reply.closed)
    }

    @Test func aClientThatDisconnectsMidLineIsForgotten() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        var client: RawControlClient? = try RawControlClient(path)
        try client?.send("stat")
        #expect(try ControlTestSupport.pump(server).isEmpty)
        #expect(server.clientCount == 1)
        client = nil  // closes it
        #expect(try ControlTestSupport.pump(server, until: { server.clientCount == 0 }).isEmpty)
        #expect(server.clientCount == 0)
        #expect(server.descriptors.count == 1)
    }

    @Test func aClientThatStopsSendingStillGetsItsReplies() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        // As `printf 'status\nskip' | socat - UNIX-CONNECT:...` does: the unfinished last
        // line is dropped, the rest answered, then the connection closes.
        let client = try RawControlClient(path)
        try client.send("status\nskip")
        client.shutdownSending()
        let messages = try ControlTestSupport.pump(server)
        #expect(messages.map { $0.request } == [.success(.status)])
        #expect(try client.receive(closeWithinMilliseconds: 5_000) == ("request: status\nok\n", true))
        #expect(server.clientCount == 0)
    }

    @Test func aClientThatFloodsWithoutReadingIsDroppedAndNeverBlocksTheLoop() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        let flood = try RawControlClient(path)
        let patient = try RawControlClient(path)
        try ControlTestSupport.pump(server)
        #expect(server.clientCount == 2)
        let request = Array(String(repeating: "status\n", count: 1_000).utf8)
        let started = Date()
        var handled = 0
        var rounds = 0
        // Sends as fast as the socket takes it, never reads; the loop keeps turning.
        while server.clientCount == 2 && rounds < 10_000 {
            _ = flood.sendWithoutBlocking(request)
            handled += try ControlTestSupport.pump(server).count
            rounds += 1
        }
        #expect(server.clientCount == 1, "the flooding client is dropped")
        #expect(Date().timeIntervalSince(started) < 5)
        // What it got was bounded by the socket's send buffer (64 KiB, doubled by the kernel).
        let received = try flood.receive(closeWithinMilliseconds: 5_000)
        #expect(received.closed)
        #expect(received.text.utf8.count <= 4 * 65_536)
        #expect(handled < 50_000)
        #expect(server.takeNotes().contains { $0.text.hasPrefix("control: dropped client 1: it does not read its replies") })

        // Everyone else is still served.
        try patient.send("skip\n")
        try ControlTestSupport.pump(server)
        #expect(try patient.receive().text == "request: skip\nok\n")
    }

    @Test func aClientThatHangsCannotLockOthersOut() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path, maximumClients: 2)
        defer { server.close() }

        let hanging = try RawControlClient(path)
        try hanging.send("sta")
        try ControlTestSupport.pump(server)
        let active = try RawControlClient(path)
        try active.send("status\n")
        try ControlTestSupport.pump(server)
        #expect(server.clientCount == 2)

        // One more: the least recently active (the hanging one) makes room.
        let newcomer = try RawControlClient(path)
        try newcomer.send("skip\n")
        try ControlTestSupport.pump(server)
        #expect(server.clientCount == 2)
        #expect(try hanging.receive(closeWithinMilliseconds: 5_000) == ("error: too many connections (at most 2); closing the least recently active\n", true))
        #expect(try newcomer.receive().text == "request: skip\nok\n")
        #expect(try active.receive().text == "request: status\nok\n")
    }

    @Test func theSocketIsMode0660InAFolderItCreates() throws {
        let folder = try MediaTestSupport.temporaryDirectory("ctl")
        defer { MediaTestSupport.remove(folder) }
        let path = folder + "/run/shfl/control"
        let server = try UnixControlServer(path: path)
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o7777 == 0o660)
        #expect(stat(folder + "/run/shfl", &status) == 0 && status.st_mode & 0o777 == 0o755)
        server.close()
        #expect(access(path, F_OK) != 0, "close() removes the socket file")
    }

    @Test func aStaleSocketIsReplacedButALiveOneOrAFileIsNot() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }

        // A daemon that died leaves its socket file behind.
        let dead = try FileDescriptor.socket(.stream)
        try dead.bind(to: UnixSocketAddress(path)!)
        dead.close()
        #expect(access(path, F_OK) == 0)
        let server = try UnixControlServer(path: path)
        let client = try RawControlClient(path)
        try client.send("status\n")
        #expect(try ControlTestSupport.pump(server).count == 1)

        // While it listens, a second server is refused and the first keeps its socket.
        #expect(throws: DeviceError(path: path, "another shfl is listening on it", code: EADDRINUSE)) {
            try UnixControlServer(path: path)
        }
        try client.send("skip\n")
        #expect(try ControlTestSupport.pump(server).count == 1)
        server.close()

        // Anything but a socket is left alone.
        let file = folder + "/notasocket"
        _ = FileManager.default.createFile(atPath: file, contents: Data("keep".utf8))
        #expect(throws: DeviceError(path: file, "the path is a regular file, not a socket; not replacing it", code: EEXIST)) {
            try UnixControlServer(path: file)
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")
        #expect(throws: DeviceError.self) { try UnixControlServer(path: folder + "/" + String(repeating: "x", count: 120)) }
    }

    @Test func repliesToGoneClientsAndForeignDescriptorsAreIgnored() throws {
        let (folder, path) = try ControlTestSupport.socketPath()
        defer { MediaTestSupport.remove(folder) }
        let server = try UnixControlServer(path: path)
        defer { server.close() }

        server.reply(ControlReply(), to: ControlClientID(serial: 99))
        let notifier = try EventNotifier()
        defer { notifier.close() }
        notifier.notify()
        #expect(server.handle(readable: notifier.descriptor).isEmpty)

        // A client that leaves before its reply: the reply goes nowhere, nothing breaks.
        var client: RawControlClient? = try RawControlClient(path)
        try client?.send("status\n")
        try ControlTestSupport.pump(server) { _ in
            client = nil
            return ControlReply()
        }
        try ControlTestSupport.pump(server, until: { server.clientCount == 0 })
        #expect(server.clientCount == 0)
        server.close()
        #expect(server.descriptors.isEmpty)
        server.close()
    }
}

extension DeviceError {
    /// The error the server throws for `path`.
    init(path: String, _ what: String, code: Int32) {
        self.init("control socket " + path + ": " + what, code: code)
    }
}
