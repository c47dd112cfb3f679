import CSystem
import Foundation
import ShflCore
import ShflService
import ShflSystem

/// Drives a `UnixControlServer` the way the event loop will (poll its descriptors, handle,
/// reply), and plays raw clients against it.
enum ControlTestSupport {
    /// A short socket path in a new folder (sun_path holds 107 bytes).
    static func socketPath() throws -> (folder: String, path: String) {
        let folder = try MediaTestSupport.temporaryDirectory("ctl")
        return (folder, folder + "/control")
    }

    /// Turns of the event loop until nothing more is ready: polls `server.descriptors` without
    /// waiting (a local socket's data or connection is there as soon as the peer's call
    /// returns), handles what is ready and answers every message with `answer`. Returns the
    /// messages, in order.
    @discardableResult
    static func pump(_ server: UnixControlServer, waitMilliseconds: Int32 = 0, answer: (ControlMessage) -> ControlReply = echo) throws -> [ControlMessage] {
        var all: [ControlMessage] = []
        var timeout = waitMilliseconds
        while true {
            var poller = Poller()
            let descriptors = server.descriptors
            for descriptor in descriptors { poller.watch(descriptor) }
            guard try poller.wait(timeoutMilliseconds: timeout) > 0 else { return all }
            timeout = 0
            for (index, descriptor) in descriptors.enumerated() where poller.isReady(index) {
                for message in server.handle(readable: descriptor) {
                    all.append(message)
                    server.reply(answer(message), to: message.client)
                }
            }
        }
    }

    /// Pumps until `condition` holds or `milliseconds` pass (a hang guard): for what a
    /// client's close does, seen only once every copy of its descriptor is closed (see
    /// `RawControlClient.receive(closeWithinMilliseconds:)`).
    @discardableResult
    static func pump(_ server: UnixControlServer, until condition: () -> Bool, withinMilliseconds milliseconds: Int32 = 5_000) throws -> [ControlMessage] {
        var all = try pump(server)
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1_000)
        while !condition() && Date() < deadline {
            all += try pump(server, waitMilliseconds: 20)
        }
        return all
    }

    /// Answers a request with its own line ("request: skip"), a refused one with its error.
    static func echo(_ message: ControlMessage) -> ControlReply {
        switch message.request {
        case .success(let request): ControlReply(fields: [ControlReply.Field("request", request.line)])
        case .failure(let error): ControlReply(error: error)
        }
    }
}

/// A raw client of the control socket, for tests: sends bytes, reads what has arrived.
final class RawControlClient {
    let socket: FileDescriptor

    init(_ path: String) throws {
        socket = try FileDescriptor.socket(.stream)
        try socket.connect(to: UnixSocketAddress(path)!)
        try socket.setNonBlocking(true)
    }

    deinit {
        socket.close()
    }

    func send(_ text: String) throws {
        try socket.writeAll(Array(text.utf8))
    }

    /// Sends as much of `bytes` as the socket takes without blocking; returns how much.
    func sendWithoutBlocking(_ bytes: [UInt8]) -> Int {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) -> Int in try socket.sendWithoutBlocking(buffer) }
        }
        return (try? result.get()) ?? 0
    }

    /// Everything received so far, and whether the server closed the connection. With
    /// `closeWithinMilliseconds`, it waits that long for the close (a hang guard): a close is
    /// seen only once every copy of the server's descriptor is closed, and a process another
    /// test spawns holds copies for a moment (between its fork and its exec).
    func receive(closeWithinMilliseconds: Int32 = 0) throws -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(Double(closeWithinMilliseconds) / 1_000)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try socket.read(into: $0) }
            } catch let error as Errno where error == .wouldBlock {
                let left = Int32(deadline.timeIntervalSinceNow * 1_000)
                guard left > 0 else { return (String(decoding: received, as: UTF8.self), false) }
                var poller = Poller()
                poller.watch(socket)
                _ = try poller.wait(timeoutMilliseconds: left)
                continue
            } catch let error as Errno where error == Errno(ECONNRESET) {
                return (String(decoding: received, as: UTF8.self), true)
            }
            if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
    }

    func shutdownSending() {
        _ = shutdown(socket.rawValue, Int32(SHUT_WR))
    }
}
