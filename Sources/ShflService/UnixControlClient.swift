import CSystem
import ShflCore
import ShflSystem

/// The client's end of the control socket (`shfl status`, `shfl skip`, ...): one request,
/// one reply, over a fresh connection.
public enum UnixControlClient {
    /// Connects to the daemon at `path`, sends `request` and reads its reply, waiting at most
    /// `timeoutMilliseconds` for it. Blocks the caller (a command-line tool, not the daemon).
    public static func send(_ request: ControlRequest, to path: String = UnixControlServer.defaultPath, timeoutMilliseconds: Int = 5_000) -> Result<ControlReply, ControlClientError> {
        guard let address = UnixSocketAddress(path) else { return .failure(.badPath(path)) }
        let socket: FileDescriptor
        do {
            socket = try FileDescriptor.socket(.stream)
        } catch {
            return .failure(.io(path: path, error))
        }
        defer { socket.close() }
        do {
            try socket.connect(to: address)
        } catch {
            if error == .noEntry || error == Errno(ECONNREFUSED) { return .failure(.notRunning(path: path, error)) }
            return .failure(.unreachable(path: path, error))
        }
        do {
            try socket.writeAll(Array((request.line + "\n").utf8))
            try socket.setNonBlocking(true)
        } catch {
            return .failure(.io(path: path, error))
        }

        let clock = SystemMonotonicClock()
        let deadline = clock.now + .milliseconds(Int64(timeoutMilliseconds))
        var reader = ControlReplyReader()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var poller = Poller()
        poller.watch(socket)
        while true {
            let remaining = (deadline - clock.now).milliseconds
            guard remaining > 0 else { return .failure(.noReply(milliseconds: timeoutMilliseconds)) }
            let count: Int
            do {
                _ = try poller.wait(timeoutMilliseconds: Int32(min(remaining, 60_000)))
                count = try buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(Errno) -> Int in try socket.read(into: bytes) }
                }.get()
            } catch {
                if error == .wouldBlock { continue }
                return .failure(.io(path: path, error))
            }
            if count == 0 { return .failure(.closedBeforeReply(path: path)) }
            do {
                if let reply = try reader.append(buffer[0..<count]) { return .success(reply) }
            } catch {
                return .failure(.malformedReply(error))
            }
        }
    }
}

/// Why a control command got no reply from the daemon.
public enum ControlClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No socket file (ENOENT), or nobody listens on it (ECONNREFUSED).
    case notRunning(path: String, Errno)
    /// The socket is there but cannot be used (EACCES: not in its group, say).
    case unreachable(path: String, Errno)
    case badPath(String)
    case io(path: String, Errno)
    case noReply(milliseconds: Int)
    case closedBeforeReply(path: String)
    case malformedReply(ControlReplyError)

    public var description: String {
        switch self {
        case .notRunning(let path, let error):
            "shfl is not running (" + (error == .noEntry ? "no control socket at " + path : "nothing listens on " + path) + ")"
        case .unreachable(let path, let error):
            "cannot connect to " + path + ": " + error.description
        case .badPath(let path):
            "'" + path + "' cannot be a socket path (at most 107 bytes)"
        case .io(let path, let error):
            "talking to " + path + ": " + error.description
        case .noReply(let milliseconds):
            "no reply from shfl within " + String(milliseconds) + " ms"
        case .closedBeforeReply(let path):
            "shfl closed the connection on " + path + " before replying"
        case .malformedReply(let error):
            "shfl sent " + error.description
        }
    }
}
