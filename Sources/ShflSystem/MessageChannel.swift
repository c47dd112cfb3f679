import CSystem

/// Two connected, non-blocking descriptors that carry whole messages: a `socketpair(2)` of
/// `AF_UNIX`, `SOCK_SEQPACKET` sockets. Every `send` is one message and every `receive` takes
/// exactly one, so small fixed-size records never arrive split or merged, and several threads
/// may send at once. A descriptor for the event loop's `poll()`: readable while messages wait.
public struct MessageChannel: Sendable {
    /// The end the event loop reads from.
    public let receivingEnd: FileDescriptor
    /// The end producers write to (any thread).
    public let sendingEnd: FileDescriptor

    /// `socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)`.
    public init() throws(Errno) {
        var pair: (Int32, Int32) = (-1, -1)
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        _ = try withUnsafeMutableBytes(of: &pair) { buffer in
            retryingOnInterrupt { () -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return socketpair(AF_UNIX, type, 0, base.assumingMemoryBound(to: Int32.self))
            }
        }.get()
        receivingEnd = FileDescriptor(rawValue: pair.0)
        sendingEnd = FileDescriptor(rawValue: pair.1)
    }

    /// Sends `message` as one message (`send(2)`); throws `Errno.wouldBlock` when the channel
    /// is full rather than waiting, so the event loop itself may send without deadlocking.
    public func send(_ message: [UInt8]) throws(Errno) {
        let result = message.withUnsafeBytes { buffer in
            retryingOnInterrupt { CSystem.send(sendingEnd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
        }
        _ = try result.get()
    }

    /// Receives one message into `buffer` (`recv(2)`); returns its length, or nil when no
    /// message waits. A message longer than the buffer is cut (the rest is dropped).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        switch retryingOnInterrupt({ recv(receivingEnd.rawValue, buffer.baseAddress, buffer.count, 0) }) {
        case .success(let count): return count
        case .failure(let error) where error == .wouldBlock: return nil
        case .failure(let error): throw error
        }
    }

    public func close() {
        receivingEnd.close()
        sendingEnd.close()
    }
}
