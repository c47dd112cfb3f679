import CSystem

// The socket family, for local (AF_UNIX) sockets only: the control socket and the systemd
// notification socket. The one place Shfl calls socket(2), bind(2), listen(2), accept4(2),
// connect(2), sendto(2) and setsockopt(2). Every descriptor is created close-on-exec.
extension FileDescriptor {
    /// The kinds of local socket Shfl uses.
    public enum SocketKind: Sendable {
        /// `SOCK_STREAM`: a connection carrying a byte stream (the control socket).
        case stream
        /// `SOCK_DGRAM`: separate messages (sd_notify).
        case datagram
    }

    /// `socket(AF_UNIX, kind | SOCK_CLOEXEC [| SOCK_NONBLOCK], 0)`.
    public static func socket(_ kind: SocketKind, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        var type = kind == .stream ? shfl_sock_stream() : shfl_sock_dgram()
        type |= shfl_sock_cloexec()
        if nonBlocking { type |= shfl_sock_nonblock() }
        let raw = try retryingOnInterrupt { CSystem.socket(AF_UNIX, type, 0) }.get()
        return FileDescriptor(rawValue: raw)
    }

    /// `bind(2)` to `address`. A path address creates the socket file (mode from the umask).
    public func bind(to address: UnixSocketAddress) throws(Errno) {
        _ = try address.withSocketAddress { pointer, length in
            retryingOnInterrupt { CSystem.bind(rawValue, pointer, length) }
        }.get()
    }

    /// `listen(2)` with room for `backlog` connections not yet accepted.
    public func listen(backlog: Int32) throws(Errno) {
        _ = try retryingOnInterrupt { CSystem.listen(rawValue, backlog) }.get()
    }

    /// `accept4(2)` with `SOCK_NONBLOCK | SOCK_CLOEXEC`: the next waiting connection, or nil
    /// when none is waiting (EAGAIN on a non-blocking socket; also ECONNABORTED, a client that
    /// went away before it was accepted).
    public func acceptConnection() throws(Errno) -> FileDescriptor? {
        let result = retryingOnInterrupt { shfl_accept4(rawValue, shfl_sock_nonblock() | shfl_sock_cloexec()) }
        switch result {
        case .success(let raw): return FileDescriptor(rawValue: raw)
        case .failure(let error) where error == .wouldBlock || error == Errno(ECONNABORTED): return nil
        case .failure(let error): throw error
        }
    }

    /// `connect(2)` to `address`. On a blocking socket to a local listener this returns at
    /// once: the connection waits in the listener's backlog (EAGAIN when that is full).
    /// ENOENT: no such socket file; ECONNREFUSED: nobody listens on it.
    public func connect(to address: UnixSocketAddress) throws(Errno) {
        _ = try address.withSocketAddress { pointer, length in
            retryingOnInterrupt { CSystem.connect(rawValue, pointer, length) }
        }.get()
    }

    /// `send(2)` with `MSG_NOSIGNAL | MSG_DONTWAIT`: queues what fits of `bytes` without
    /// blocking and returns how much that was (EAGAIN when nothing fits; EPIPE, not SIGPIPE,
    /// when the peer has gone).
    public func sendWithoutBlocking(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt {
            CSystem.send(rawValue, bytes.baseAddress, bytes.count, shfl_msg_nosignal() | shfl_msg_dontwait())
        }.get()
    }

    /// `sendto(2)` of one datagram to `address`, with `MSG_NOSIGNAL`; returns the bytes sent.
    public func sendDatagram(_ bytes: [UInt8], to address: UnixSocketAddress) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { buffer in
            address.withSocketAddress { pointer, length in
                retryingOnInterrupt {
                    CSystem.sendto(rawValue, buffer.baseAddress, buffer.count, shfl_msg_nosignal(), pointer, length)
                }
            }
        }.get()
    }

    /// `setsockopt(SOL_SOCKET, SO_SNDBUF)`: the kernel's send buffer for this socket (the
    /// kernel doubles the value for its bookkeeping).
    public func setSendBufferSize(_ bytes: Int32) throws(Errno) {
        var value = bytes
        _ = try retryingOnInterrupt {
            setsockopt(rawValue, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
        }.get()
    }
}
