import CSystem
import ShflCore
import ShflSystem

/// The daemon's end of the control socket (`/run/shfl/control`; the protocol is in
/// `ControlRequest` and `ControlReply`), made for a single-threaded `poll()` loop. Nothing in
/// it ever blocks: the listening socket and every connection are non-blocking.
///
/// How the event loop uses it, each turn:
///
///     var poller = Poller()                    // rebuilt each turn: connections come and go
///     let control = server.descriptors
///     for descriptor in control { poller.watch(descriptor) }
///     ... watch the loop's other descriptors, then poller.wait(...)
///     for (index, descriptor) in control.enumerated() where poller.isReady(index) {
///         for message in server.handle(readable: descriptor) {
///             switch message.request {
///             case .success(let request): server.reply(answer(request), to: message.client)
///             case .failure(let error): server.reply(ControlReply(error: error), to: message.client)
///             }
///         }
///     }
///     for note in server.takeNotes() { log(note) }
///
/// Bounds, so that no client can stall the loop or grow its memory:
/// - at most `maximumLineLength` (512) bytes of an unfinished line per client; a longer line
///   gets `error: request longer than 512 bytes` and the connection is closed after it;
/// - at most 4 KiB read from one client per `handle(readable:)`;
/// - at most `maximumClients` connections: one more closes the least recently active (a
///   client that sent half a line and hung cannot lock `shfl status` out);
/// - a reply is queued whole in the kernel's send buffer (`sendBufferBytes`) or the client
///   is dropped: a client that never reads its replies is cut off once that buffer is full,
///   and no reply is ever held in user space.
/// A client that shuts down its sending side still gets the replies to the requests it sent
/// (then the connection closes); an unfinished line at that point is dropped.
public final class UnixControlServer {
    public static let defaultPath = "/run/shfl/control"

    /// Where the socket is.
    public let path: String
    public let maximumClients: Int
    public let sendBufferBytes: Int32

    private let listener: FileDescriptor
    private let socketFile: FileStatus?
    private var clients: [Connection] = []
    private var nextSerial: UInt64 = 1
    private var activityCounter: UInt64 = 0
    private var notes: [LogMessage] = []
    private var readBuffer = [UInt8](repeating: 0, count: 4_096)
    private var isClosed = false

    private struct Connection {
        let id: ControlClientID
        let descriptor: FileDescriptor
        var input = ControlLineBuffer(limit: ControlRequest.maximumLineLength)
        /// End of input, or a line too long: nothing more is read from it.
        var inputClosed = false
        /// Requests handed to the loop and not yet replied to.
        var awaitingReplies = 0
        var lastActivity: UInt64
    }

    /// Creates the socket at `path` (mode 0660, its parent directory with mode 0755 if
    /// missing) and listens. A socket file left by a daemon that died is replaced; a socket
    /// someone still listens on, or anything that is not a socket, is an error.
    public init(path: String = UnixControlServer.defaultPath, maximumClients: Int = 16, sendBufferBytes: Int32 = 65_536) throws(DeviceError) {
        let what = "control socket " + path
        guard let address = UnixSocketAddress(path), !address.isAbstract else {
            throw DeviceError(what + ": not a usable socket path (at most 107 bytes)", code: ENAMETOOLONG)
        }
        self.path = path
        self.maximumClients = max(maximumClients, 1)
        self.sendBufferBytes = sendBufferBytes
        let pathBytes = Array(path.utf8)

        if let slash = pathBytes.lastIndex(of: UInt8(ascii: "/")), slash > 0 {
            do {
                try FileDescriptor.makeDirectories(Array(pathBytes[..<slash]), mode: 0o755)
            } catch {
                throw error.deviceError(what + ": creating its directory")
            }
        }
        try UnixControlServer.removeStaleSocket(pathBytes, address: address, what: what)

        let listener: FileDescriptor
        do {
            listener = try FileDescriptor.socket(.stream, nonBlocking: true)
        } catch {
            throw error.deviceError(what + ": socket")
        }
        do {
            try listener.bind(to: address)
        } catch {
            listener.close()
            throw error.deviceError(what + ": bind")
        }
        // Before listen(): nobody can connect yet, so nobody ever sees the umask's mode.
        do {
            try FileDescriptor.currentDirectory.changeMode(pathBytes, to: 0o660)
            try listener.listen(backlog: Int32(self.maximumClients))
        } catch {
            listener.close()
            _ = try? FileDescriptor.currentDirectory.removeEntry(pathBytes)
            throw error.deviceError(what + ": chmod and listen")
        }
        self.listener = listener
        self.socketFile = try? FileDescriptor.currentDirectory.statusOfEntry(pathBytes)
    }

    deinit {
        close()
    }

    /// The descriptors to watch for input (POLLIN): the listening socket first, then every
    /// connection still sending. Changes after `handle(readable:)` and `reply(_:to:)`.
    public var descriptors: [FileDescriptor] {
        guard !isClosed else { return [] }
        var descriptors = [listener]
        for client in clients where !client.inputClosed { descriptors.append(client.descriptor) }
        return descriptors
    }

    /// Open connections.
    public var clientCount: Int { clients.count }

    /// Call when `poll()` reports `descriptor` (one of `descriptors`) readable, or in error.
    /// Accepts new connections or reads what a client sent; returns the complete request
    /// lines, in order, each to be answered with `reply(_:to:)`. A descriptor that is not (or
    /// no longer) the server's is ignored.
    public func handle(readable descriptor: FileDescriptor) -> [ControlMessage] {
        guard !isClosed else { return [] }
        if descriptor == listener {
            acceptWaitingConnections()
            return []
        }
        guard let index = clients.firstIndex(where: { $0.descriptor == descriptor }), !clients[index].inputClosed else { return [] }

        let count: Int
        do {
            count = try readBuffer.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) -> Int in try descriptor.read(into: buffer) }
            }.get()
        } catch {
            if error == .wouldBlock { return [] }
            drop(at: index, reason: "read failed: " + error.description)
            return []
        }
        activityCounter += 1
        clients[index].lastActivity = activityCounter
        if count == 0 {
            // The client shut down its side: answer what it asked, then close.
            clients[index].inputClosed = true
            closeIfDone(at: index)
            return []
        }

        var messages: [ControlMessage] = []
        let id = clients[index].id
        for line in clients[index].input.append(readBuffer[0..<count]) {
            switch line {
            case .complete(let bytes):
                let request: Result<ControlRequest, ControlError>
                do {
                    request = .success(try ControlRequest(parsing: bytes))
                } catch {
                    request = .failure(error)
                }
                messages.append(ControlMessage(client: id, request: request))
            case .tooLong:
                messages.append(ControlMessage(client: id, request: .failure(.lineTooLong(limit: ControlRequest.maximumLineLength))))
                clients[index].inputClosed = true
                notes.append(LogMessage(.warning, "control: " + id.description + " sent a line longer than "
                    + String(ControlRequest.maximumLineLength) + " bytes; closing it"))
            }
            if clients[index].inputClosed { break }
        }
        clients[index].awaitingReplies += messages.count
        return messages
    }

    /// Sends `reply` to `client`, never blocking. A client whose kernel send buffer cannot
    /// take the whole reply (it does not read its replies) is dropped; a client that has
    /// gone is ignored.
    public func reply(_ reply: ControlReply, to client: ControlClientID) {
        guard !isClosed, let index = clients.firstIndex(where: { $0.id == client }) else { return }
        clients[index].awaitingReplies = max(clients[index].awaitingReplies - 1, 0)
        let bytes = reply.bytes
        let descriptor = clients[index].descriptor
        let sent = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) -> Int in try descriptor.sendWithoutBlocking(buffer) }
        }
        switch sent {
        case .success(let count) where count == bytes.count:
            closeIfDone(at: index)
        case .success, .failure(Errno.wouldBlock):
            drop(at: index, reason: "it does not read its replies (" + String(sendBufferBytes) + " bytes unread)")
        case .failure(let error):
            drop(at: index, reason: "send failed: " + error.description)
        }
    }

    /// Log lines about clients dropped or refused since the last call (the server writes no
    /// log itself). Requests themselves are not noted: the loop logs what it does.
    public func takeNotes() -> [LogMessage] {
        defer { notes.removeAll() }
        return notes
    }

    /// Closes every connection and the listening socket, and removes the socket file (if it
    /// is still the one this server made). Called by `deinit` too; a second call does nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        for client in clients { client.descriptor.close() }
        clients.removeAll()
        listener.close()
        let pathBytes = Array(path.utf8)
        if let socketFile, let now = try? FileDescriptor.currentDirectory.statusOfEntry(pathBytes),
           now.device == socketFile.device, now.inode == socketFile.inode {
            _ = try? FileDescriptor.currentDirectory.removeEntry(pathBytes)
        }
    }

    /// Removes a socket file nobody listens on (a daemon that died left it); refuses one
    /// that is in use, or a file that is not a socket.
    private static func removeStaleSocket(_ pathBytes: [UInt8], address: UnixSocketAddress, what: String) throws(DeviceError) {
        let status: FileStatus
        do {
            status = try FileDescriptor.currentDirectory.statusOfEntry(pathBytes)
        } catch {
            if error == .noEntry { return }
            throw error.deviceError(what)
        }
        guard status.kind == .socket else {
            throw DeviceError(what + ": the path is a " + status.kind.description + ", not a socket; not replacing it", code: EEXIST)
        }
        let probe: FileDescriptor
        do {
            probe = try FileDescriptor.socket(.stream)
        } catch {
            throw error.deviceError(what + ": socket")
        }
        defer { probe.close() }
        do {
            try probe.connect(to: address)
        } catch {
            guard error == Errno(ECONNREFUSED) else { throw error.deviceError(what + ": checking the existing socket") }
            do {
                try FileDescriptor.currentDirectory.removeEntry(pathBytes)
            } catch {
                throw error.deviceError(what + ": removing the stale socket")
            }
            return
        }
        throw DeviceError(what + ": another shfl is listening on it", code: EADDRINUSE)
    }

    // MARK: - Connections

    private func acceptWaitingConnections() {
        // Bounded: a storm of connections cannot keep the loop here.
        for _ in 0..<(maximumClients * 2) {
            let accepted: FileDescriptor?
            do {
                accepted = try listener.acceptConnection()
            } catch {
                notes.append(LogMessage(.warning, "control: accept failed: " + error.description))
                return
            }
            guard let descriptor = accepted else { return }
            try? descriptor.setSendBufferSize(sendBufferBytes)
            if clients.count >= maximumClients, let oldest = leastRecentlyActive() {
                let evicted = clients[oldest]
                let notice = ControlReply(error: "too many connections (at most " + String(maximumClients) + "); closing the least recently active").bytes
                _ = notice.withUnsafeBytes { buffer in
                    Result { () throws(Errno) -> Int in try evicted.descriptor.sendWithoutBlocking(buffer) }
                }
                drop(at: oldest, reason: "too many connections; it was the least recently active")
            }
            activityCounter += 1
            clients.append(Connection(id: ControlClientID(serial: nextSerial), descriptor: descriptor, lastActivity: activityCounter))
            nextSerial += 1
        }
    }

    private func leastRecentlyActive() -> Int? {
        var oldest: Int?
        for index in clients.indices where oldest.map({ clients[index].lastActivity < clients[$0].lastActivity }) ?? true {
            oldest = index
        }
        return oldest
    }

    private func closeIfDone(at index: Int) {
        let client = clients[index]
        if client.inputClosed && client.awaitingReplies == 0 {
            client.descriptor.close()
            clients.remove(at: index)
        }
    }

    private func drop(at index: Int, reason: String) {
        let client = clients.remove(at: index)
        client.descriptor.close()
        notes.append(LogMessage(.warning, "control: dropped " + client.id.description + ": " + reason))
    }
}
